import { createHash } from "node:crypto";
import { isoInstant, isoMinute, nextUtcMidnight } from "../../../kernel/day.js";
class SignInDesk {
  constructor(o) {
    this.o = o;
  }
  o;
  failures = 0;
  lockedUntil = Number.NEGATIVE_INFINITY;
  pending = null;
  sessions = /* @__PURE__ */ new Map();
  draws = 0;
  static fromParams(p, envSeed, outbox, onCode) {
    return new SignInDesk({
      username: p.username,
      password: p.password,
      mailbox: p.mailbox,
      rules: {
        session_idle_ms: p.session_idle_ms,
        code_ttl_ms: p.code_ttl_ms,
        max_failed_logins: p.max_failed_logins,
        lockout_ms: p.lockout_ms
      },
      envSeed,
      outbox,
      ...onCode ? { onCode } : {}
    });
  }
  get rules() {
    return this.o.rules;
  }
  /** every one-time code issued so far, in order */
  issuedCodes = [];
  draw(label) {
    this.draws++;
    return createHash("sha256").update(`${this.o.envSeed}:broker-ops:${label}:${this.draws}`).digest("hex");
  }
  lockedError(now) {
    return now < this.lockedUntil ? `Account locked after ${this.o.rules.max_failed_logins} failed sign-ins in a row until ${isoMinute(this.lockedUntil)}.` : null;
  }
  fail(now, why) {
    this.failures++;
    if (this.failures >= this.o.rules.max_failed_logins) {
      this.failures = 0;
      this.pending = null;
      this.lockedUntil = now + this.o.rules.lockout_ms;
      return { status: 423, error: `${why} ${this.lockedError(now)}` };
    }
    const left = this.o.rules.max_failed_logins - this.failures;
    return {
      status: 401,
      error: `${why} ${left} more failed sign-in${left === 1 ? "" : "s"} in a row lock the account.`
    };
  }
  /** Step 1: username and password. On success a code is mailed and a pending sign-in token returned. */
  signIn(username, password, now) {
    const locked = this.lockedError(now);
    if (locked) return { ok: false, status: 423, error: locked };
    if (username !== this.o.username) return { ok: false, status: 401, error: "Invalid username or password." };
    if (password !== this.o.password) return { ok: false, ...this.fail(now, "Invalid username or password.") };
    const code = String(Number.parseInt(this.draw("code").slice(0, 12), 16) % 1e6).padStart(6, "0");
    const expires = now + this.o.rules.code_ttl_ms;
    this.pending = { token: this.draw("pending").slice(0, 32), code, issued: now, expires };
    this.issuedCodes.push(code);
    this.o.onCode?.(code);
    const mail = this.o.outbox.send({
      t: now,
      from: "security@broker.relive.test",
      to: this.o.mailbox,
      subject: "Your sign-in code",
      body: `Your one-time sign-in code is ${code}. It is valid until ${isoInstant(expires)} (${this.o.rules.code_ttl_ms / 6e4} minutes) and only for the sign-in started at ${isoInstant(now)}.`
    });
    return { ok: true, pending: this.pending.token, mail_id: mail.id, code_expires: expires };
  }
  /** Step 2: the mailed code, for the pending sign-in `token`. On success a session begins. */
  verify(token, code, now) {
    const locked = this.lockedError(now);
    if (locked) return { ok: false, status: 423, error: locked };
    const p = this.pending;
    if (!p || token === void 0 || token !== p.token)
      return {
        ok: false,
        status: 400,
        error: "No sign-in in progress: sign in with your username and password first."
      };
    if (now >= p.expires) {
      this.pending = null;
      return { ok: false, ...this.fail(now, "The code has expired: sign in again for a new one.") };
    }
    if (code.trim() !== p.code) return { ok: false, ...this.fail(now, "Wrong code.") };
    this.pending = null;
    this.failures = 0;
    const session = {
      id: this.draw("session").slice(0, 32),
      created: now,
      lastSeen: now,
      endsAt: nextUtcMidnight(now)
    };
    this.sessions.set(session.id, session);
    return { ok: true, session };
  }
  /** The live session `id` at `now` (its idle timer restarts), else null (unknown, idle too long, past 00:00). */
  touch(id, now) {
    if (id === void 0) return null;
    const s = this.sessions.get(id);
    if (!s) return null;
    if (now >= s.lastSeen + this.o.rules.session_idle_ms || now >= s.endsAt) {
      this.sessions.delete(id);
      return null;
    }
    s.lastSeen = now;
    return s;
  }
  /** When session `s` ends if no request comes: the idle limit or 00:00, whichever is first. */
  expiresAt(s) {
    return Math.min(s.lastSeen + this.o.rules.session_idle_ms, s.endsAt);
  }
  signOut(id) {
    if (id !== void 0) this.sessions.delete(id);
  }
}
export {
  SignInDesk
};
//# sourceMappingURL=sign-in.js.map
