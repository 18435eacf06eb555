import { createHash } from "node:crypto";
import { isoInstant, isoMinute, nextUtcMidnight } from "../../../common/time.js";
import type { BrokerOpsParams } from "../params.js";
import type { Outbox } from "./outbox.js";

/** A signed-in session (server-side, on simulated time). */
export interface Session {
  id: string;
  created: number;
  /** the last request made with it */
  lastSeen: number;
  /** the first 00:00 UTC after it was created: it ends there whatever the activity */
  endsAt: number;
}

interface Pending {
  token: string;
  code: string;
  issued: number;
  expires: number;
}

export type SignInResult =
  | { ok: true; pending: string; mail_id: string; code_expires: number }
  | { ok: false; status: 401 | 423; error: string };

export type VerifyResult = { ok: true; session: Session } | { ok: false; status: 400 | 401 | 423; error: string };

/** The sign-in rules of the ops account, as the site's pages and API state them. */
export interface SignInRules {
  session_idle_ms: number;
  code_ttl_ms: number;
  max_failed_logins: number;
  lockout_ms: number;
}

/**
 * The ops account's sign-in state for one run: password check, one-time codes mailed to the desk
 * (valid `code_ttl_ms`; a new sign-in replaces the pending code), sessions that end after
 * `session_idle_ms` without a request and at the first 00:00 UTC after they began, and the lock:
 * `max_failed_logins` failures in a row (a wrong password for the account, a wrong or expired code)
 * lock the account for `lockout_ms`; a completed sign-in resets the count. Codes and tokens are
 * drawn from the run's environment seed (deterministic; never Math.random).
 */
export class SignInDesk {
  private failures = 0;
  private lockedUntil = Number.NEGATIVE_INFINITY;
  private pending: Pending | null = null;
  private readonly sessions = new Map<string, Session>();
  private draws = 0;

  constructor(
    private readonly o: {
      username: string;
      password: string;
      mailbox: string;
      rules: SignInRules;
      envSeed: number;
      outbox: Outbox;
      /** told every code before it is mailed (the run registers it as a secret) */
      onCode?: (code: string) => void;
    },
  ) {}

  static fromParams(p: BrokerOpsParams, envSeed: number, outbox: Outbox, onCode?: (code: string) => void): SignInDesk {
    return new SignInDesk({
      username: p.username,
      password: p.password,
      mailbox: p.mailbox,
      rules: {
        session_idle_ms: p.session_idle_ms,
        code_ttl_ms: p.code_ttl_ms,
        max_failed_logins: p.max_failed_logins,
        lockout_ms: p.lockout_ms,
      },
      envSeed,
      outbox,
      ...(onCode ? { onCode } : {}),
    });
  }

  get rules(): SignInRules {
    return this.o.rules;
  }

  /** every one-time code issued so far, in order */
  readonly issuedCodes: string[] = [];

  private draw(label: string): string {
    this.draws++;
    return createHash("sha256").update(`${this.o.envSeed}:broker-ops:${label}:${this.draws}`).digest("hex");
  }

  private lockedError(now: number): string | null {
    return now < this.lockedUntil
      ? `Account locked after ${this.o.rules.max_failed_logins} failed sign-ins in a row until ${isoMinute(this.lockedUntil)}.`
      : null;
  }

  private fail(now: number, why: string): { status: 401 | 423; error: string } {
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
      error: `${why} ${left} more failed sign-in${left === 1 ? "" : "s"} in a row lock the account.`,
    };
  }

  /** Step 1: username and password. On success a code is mailed and a pending sign-in token returned. */
  signIn(username: string, password: string, now: number): SignInResult {
    const locked = this.lockedError(now);
    if (locked) return { ok: false, status: 423, error: locked };
    if (username !== this.o.username) return { ok: false, status: 401, error: "Invalid username or password." };
    if (password !== this.o.password) return { ok: false, ...this.fail(now, "Invalid username or password.") };
    const code = String(Number.parseInt(this.draw("code").slice(0, 12), 16) % 1_000_000).padStart(6, "0");
    const expires = now + this.o.rules.code_ttl_ms;
    this.pending = { token: this.draw("pending").slice(0, 32), code, issued: now, expires };
    this.issuedCodes.push(code);
    this.o.onCode?.(code);
    const mail = this.o.outbox.send({
      t: now,
      from: "security@broker.relive.test",
      to: this.o.mailbox,
      subject: "Your sign-in code",
      body:
        `Your one-time sign-in code is ${code}. It is valid until ${isoInstant(expires)} ` +
        `(${this.o.rules.code_ttl_ms / 60_000} minutes) and only for the sign-in started at ${isoInstant(now)}.`,
    });
    return { ok: true, pending: this.pending.token, mail_id: mail.id, code_expires: expires };
  }

  /** Step 2: the mailed code, for the pending sign-in `token`. On success a session begins. */
  verify(token: string | undefined, code: string, now: number): VerifyResult {
    const locked = this.lockedError(now);
    if (locked) return { ok: false, status: 423, error: locked };
    const p = this.pending;
    if (!p || token === undefined || token !== p.token)
      return {
        ok: false,
        status: 400,
        error: "No sign-in in progress: sign in with your username and password first.",
      };
    if (now >= p.expires) {
      this.pending = null;
      return { ok: false, ...this.fail(now, "The code has expired: sign in again for a new one.") };
    }
    if (code.trim() !== p.code) return { ok: false, ...this.fail(now, "Wrong code.") };
    this.pending = null;
    this.failures = 0;
    const session: Session = {
      id: this.draw("session").slice(0, 32),
      created: now,
      lastSeen: now,
      endsAt: nextUtcMidnight(now),
    };
    this.sessions.set(session.id, session);
    return { ok: true, session };
  }

  /** The live session `id` at `now` (its idle timer restarts), else null (unknown, idle too long, past 00:00). */
  touch(id: string | undefined, now: number): Session | null {
    if (id === undefined) return null;
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
  expiresAt(s: Session): number {
    return Math.min(s.lastSeen + this.o.rules.session_idle_ms, s.endsAt);
  }

  signOut(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }
}
