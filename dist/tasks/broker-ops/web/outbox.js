class Outbox {
  mails = [];
  send(m) {
    const last = this.mails.at(-1);
    if (last && m.t < last.t) throw new Error(`internal: outbox mail at ${m.t} before the previous one at ${last.t}`);
    const mail = { id: `otp-${String(this.mails.length + 1).padStart(4, "0")}`, ...m };
    this.mails.push(mail);
    return mail;
  }
  /** mails sent at or before `now`, in sending order */
  sentBy(now) {
    return this.mails.filter((m) => m.t <= now);
  }
}
export {
  Outbox
};
//# sourceMappingURL=outbox.js.map
