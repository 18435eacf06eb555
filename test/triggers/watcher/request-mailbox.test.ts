import { describe, expect, it } from "vitest";
import { SandboxSession } from "../../../src/triggers/watcher/sandbox-session.js";
import { drive, errorOf, payloadOf, START } from "./helpers.js";

// Issue 18 §5: the prelude queues the requests the host would accept in a mailbox the host reads
// (no call out of the sandbox per request). These guard what a hostile program could try on it.
describe("the request mailbox (watcher fast path)", () => {
  it("cannot flood: at most maxCallsBetweenWaits calls at one instant reach the wrappers, unawaited or not", async () => {
    const r = await drive("for (let i = 0; ; i++) envkit.tools.quote({ i });", { maxCallsBetweenWaits: 200 });
    expect(errorOf(r.end)).toMatch(
      /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait that moves time forward \(all at 2026-03-01T00:00:00\.000Z; last: quote\)/,
    );
    expect(r.calls.length).toBeLessThanOrEqual(200);
  });

  it("a wait's argument is never coerced (no valueOf/toString of the program runs) and bad ones throw as before", async () => {
    const r = await drive(`
      let coerced = 0;
      const sly = { valueOf() { coerced++; return envkit.now() + 60000; }, toString() { coerced++; return "1"; } };
      const errors = [];
      for (const u of [sly, "9999999999999", NaN, Infinity, -Infinity, envkit.now() - 1, null]) {
        try { await envkit.wait(u); errors.push("waited"); } catch (e) { errors.push(e.name + ": " + e.message); }
      }
      envkit.handover({ coerced, errors, now: envkit.now() });
    `);
    const p = payloadOf(r.end) as { coerced: number; errors: string[]; now: number };
    expect(p.coerced).toBe(0);
    expect(p.now).toBe(START);
    expect(p.errors).toHaveLength(7);
    expect(
      p.errors
        .slice(0, 2)
        .every((e) => e.startsWith("TypeError: envkit.wait(until): until must be an epoch-ms number")),
    ).toBe(true);
    expect(p.errors[2]).toBe("TypeError: envkit.wait(until): until must be finite, got NaN");
    expect(p.errors[5]).toMatch(/^RangeError: envkit\.wait\(until\): until .* is before now/);
    expect(r.sleeps).toEqual([]);
  });

  // (QuickJS's JSON.stringify itself hands the value being stringified to an Object.prototype "0"
  // setter, as it did before the mailbox: the program's own arguments, an object; never a queued name or JSON string)
  it("prototype setters of the program never see a queued request", async () => {
    const r = await drive(`
      let seen = "";
      for (const k of ["0", "1", "-1", "top", "allow", "off", "w"])
        Object.defineProperty(Object.prototype, k, { set(v) { seen = seen + " " + k + ":" + typeof v; }, configurable: true });
      const a = await envkit.tools.quote({ n: 1 });
      const b = await envkit.tools.quote({ n: 2 });
      await envkit.wait(envkit.now() + 60000);
      envkit.handover({ seen, a: a.value.args.n, b: b.value.args.n, now: envkit.now() });
    `);
    const p = payloadOf(r.end) as { seen: string };
    expect(p).toMatchObject({ a: 1, b: 2, now: START + 60_000 });
    expect(p.seen).not.toMatch(/:(string|number|boolean|undefined|function)/);
    expect(p.seen.replaceAll(" 0:object", "")).toBe("");
    expect(r.calls.map((c) => c.args)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  // Interrupt polls count the interpreter's calls and jumps, so the point where the step budget
  // runs out depends on how many the envkit plumbing makes per request. These counts were measured
  // on the implementation before the mailbox (each request a host call): they must not move.
  it("costs the same interrupt polls per request as the host-call implementation did", async () => {
    const polls = async (source: string) => {
      const s = await SandboxSession.open({
        mode: "run",
        source,
        path: "p.js",
        now: () => START,
        deadline: null,
        toolNames: ["quote"],
        workspace: null,
        stepBudget: 1e9,
        memoryLimitBytes: 64 << 20,
        maxStackBytes: 192 << 10,
        maxCallsBetweenWaits: 1e9,
        randomSeed: 1,
      });
      try {
        s.start();
        for (;;) {
          s.drain();
          if (s.end() !== null) return s.pollsUsed;
          const c = s.nextCall();
          if (c !== undefined) {
            s.resolveCall(c, { ok: true, value: { px: 1 } });
            continue;
          }
          const w = s.takeWait();
          if (w === null) throw new Error("stuck");
          s.resumeAfterWait(w, START); // a wait that does not move the clock: one poll each
        }
      } finally {
        s.dispose();
      }
    };
    expect(
      await polls(
        "for (let i = 0; i < 30000; i++) { await envkit.tools.quote({ s: 'x' }); await envkit.wait(envkit.now()); }",
      ),
    ).toBe(30_126);
    expect(
      await polls(
        "const ps = []; for (let i = 0; i < 20000; i++) ps.push(envkit.tools.quote({ i })); for (const p of ps) await p;",
      ),
    ).toBe(66);
    expect(
      await polls(
        "let x = 0; for (let i = 0; i < 30000; i++) { x += Date.now() + new Date().getTime() + envkit.now(); Date(); } await envkit.tools.quote({ x });",
      ),
    ).toBe(72);
    expect(
      await polls(
        "let n = 0; for (let i = 0; i < 20000; i++) { try { await envkit.wait(0); } catch (e) { n++; } } await envkit.tools.quote({ n });",
      ),
    ).toBe(38);
  });
});
