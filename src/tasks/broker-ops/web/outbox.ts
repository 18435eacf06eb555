/** A mail the broker site sent to the desk's mailbox (one-time sign-in codes). */
export interface SiteMail {
  /** `otp-0001`, … in sending order */
  id: string;
  t: number;
  from: string;
  to: string;
  subject: string;
  body: string;
}

/**
 * Mails the broker site sent during this run (rebuilt by re-running the episode on resume). The
 * mail host serves them next to the PM notes of the world, each from its sending instant on.
 */
export class Outbox {
  private readonly mails: SiteMail[] = [];

  send(m: Omit<SiteMail, "id">): SiteMail {
    const last = this.mails.at(-1);
    if (last && m.t < last.t) throw new Error(`internal: outbox mail at ${m.t} before the previous one at ${last.t}`);
    const mail = { id: `otp-${String(this.mails.length + 1).padStart(4, "0")}`, ...m };
    this.mails.push(mail);
    return mail;
  }

  /** mails sent at or before `now`, in sending order */
  sentBy(now: number): SiteMail[] {
    return this.mails.filter((m) => m.t <= now);
  }
}
