import { describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../../src/common/time.js";
import { defaultBrokerOpsParams } from "../../../src/tasks/broker-ops/params.js";
import { Outbox } from "../../../src/tasks/broker-ops/web/outbox.js";
import { SignInDesk } from "../../../src/tasks/broker-ops/web/sign-in.js";

const P = defaultBrokerOpsParams();
const T0 = Date.parse("2026-03-02T09:00:00Z");

function desk(seed = 7) {
  const outbox = new Outbox();
  return { outbox, desk: SignInDesk.fromParams(P, seed, outbox) };
}

function signedIn(d: SignInDesk, t: number) {
  const s = d.signIn(P.username, P.password, t);
  if (!s.ok) throw new Error(s.error);
  const v = d.verify(s.pending, d.issuedCodes.at(-1)!, t);
  if (!v.ok) throw new Error(v.error);
  return v.session;
}

describe("broker sign-in: password, mailed one-time code, sessions on simulated time, lockout", () => {
  it("a correct password mails a 6-digit code valid for exactly 10 minutes", () => {
    const { desk: d, outbox } = desk();
    const s = d.signIn(P.username, P.password, T0);
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    expect(s.code_expires).toBe(T0 + 10 * MINUTE_MS);
    const mail = outbox.sentBy(T0);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ id: "otp-0001", t: T0, to: P.mailbox, subject: "Your sign-in code" });
    const code = d.issuedCodes[0]!;
    expect(code).toMatch(/^\d{6}$/);
    expect(mail[0]!.body).toContain(`code is ${code}`);
    expect(outbox.sentBy(T0 - 1)).toHaveLength(0);
    // the last valid instant is 10 min − 1 ms after issue
    expect(d.verify(s.pending, code, T0 + 10 * MINUTE_MS - 1).ok).toBe(true);
    const again = d.signIn(P.username, P.password, T0 + HOUR_MS);
    if (!again.ok) throw new Error("sign-in failed");
    const late = d.verify(again.pending, d.issuedCodes[1]!, T0 + HOUR_MS + 10 * MINUTE_MS);
    expect(late).toEqual({ ok: false, status: 401, error: expect.stringMatching(/^The code has expired/) });
  });

  it("codes are deterministic per environment seed and a new sign-in replaces the pending code", () => {
    const a = desk(7).desk;
    const b = desk(7).desk;
    a.signIn(P.username, P.password, T0);
    b.signIn(P.username, P.password, T0);
    expect(a.issuedCodes).toEqual(b.issuedCodes);
    const first = a.signIn(P.username, P.password, T0 + MINUTE_MS);
    const second = a.signIn(P.username, P.password, T0 + 2 * MINUTE_MS);
    if (!first.ok || !second.ok) throw new Error("sign-in failed");
    expect(a.verify(first.pending, a.issuedCodes[1]!, T0 + 3 * MINUTE_MS)).toMatchObject({ ok: false, status: 400 });
    expect(a.verify(second.pending, a.issuedCodes[2]!, T0 + 3 * MINUTE_MS).ok).toBe(true);
    // a used code cannot be replayed
    expect(a.verify(second.pending, a.issuedCodes[2]!, T0 + 4 * MINUTE_MS)).toMatchObject({ ok: false, status: 400 });
  });

  it("sessions end after 30 idle minutes (each request restarts the timer) and always at 00:00 UTC", () => {
    const { desk: d } = desk();
    const s = signedIn(d, T0);
    expect(d.expiresAt(s)).toBe(T0 + 30 * MINUTE_MS);
    expect(d.touch(s.id, T0 + 29 * MINUTE_MS)?.id).toBe(s.id);
    expect(d.touch(s.id, T0 + 58 * MINUTE_MS)?.id).toBe(s.id);
    expect(d.touch(s.id, T0 + 88 * MINUTE_MS)).toBeNull();
    // a session kept busy still ends at midnight
    const late = signedIn(d, Date.parse("2026-03-02T23:50:00Z"));
    expect(late.endsAt).toBe(Date.parse("2026-03-03T00:00:00Z"));
    expect(d.touch(late.id, Date.parse("2026-03-02T23:59:59Z"))?.id).toBe(late.id);
    expect(d.touch(late.id, Date.parse("2026-03-03T00:00:00Z"))).toBeNull();
    expect(d.touch(undefined, T0)).toBeNull();
    expect(d.touch("nope", T0)).toBeNull();
  });

  it("five failed sign-ins in a row lock the account for 24 h; unknown usernames do not count; success resets the count", () => {
    const { desk: d } = desk();
    expect(d.signIn("someone", "x", T0)).toEqual({ ok: false, status: 401, error: "Invalid username or password." });
    for (let i = 1; i <= 4; i++) {
      const r = d.signIn(P.username, "wrong-password", T0 + i);
      expect(r).toEqual({
        ok: false,
        status: 401,
        error: `Invalid username or password. ${5 - i} more failed sign-in${5 - i === 1 ? "" : "s"} in a row lock the account.`,
      });
    }
    // a wrong code is the fifth failure
    const s = d.signIn(P.username, P.password, T0 + 10);
    if (!s.ok) throw new Error("sign-in failed");
    const wrong = d.issuedCodes[0] === "000000" ? "000001" : "000000";
    const lock = d.verify(s.pending, wrong, T0 + 11);
    expect(lock).toEqual({
      ok: false,
      status: 423,
      error: "Wrong code. Account locked after 5 failed sign-ins in a row until 2026-03-03T09:00Z.",
    });
    // locked: even the right password is refused, without a new code
    expect(d.signIn(P.username, P.password, T0 + HOUR_MS)).toMatchObject({ ok: false, status: 423 });
    expect(d.issuedCodes).toHaveLength(1);
    // 24 h after the fifth failure the account opens again
    expect(d.signIn(P.username, P.password, T0 + 11 + 24 * HOUR_MS - 1).ok).toBe(false);
    signedIn(d, T0 + 11 + 24 * HOUR_MS);
    // the count restarted: four failures do not lock
    for (let i = 0; i < 4; i++)
      expect(d.signIn(P.username, "bad-password", T0 + 25 * HOUR_MS + i)).toMatchObject({ status: 401 });
    signedIn(d, T0 + 25 * HOUR_MS + 10);
    for (let i = 0; i < 4; i++)
      expect(d.signIn(P.username, "bad-password", T0 + 26 * HOUR_MS + i)).toMatchObject({ status: 401 });
  });
});
