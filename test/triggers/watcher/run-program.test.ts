import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Kernel } from "../../../src/kernel/kernel.js";
import { type ProgramEnd, runProgram, validateProgram } from "../../../src/triggers/watcher/run-program.js";
import { DAY, drive, errorOf, HOUR, MIN, payloadOf, START, tmpWorkspace } from "./helpers.js";

describe("runProgram with a real kernel", () => {
  it("waits move the kernel clock and data tool calls run at the instant they are issued", async () => {
    const r = await drive(`
      const seen = [];
      for (let i = 0; i < 3; i++) {
        const q = await envkit.tools.quote({ i });
        seen.push(q.value.at);
        const t = await envkit.wait(envkit.now() + 10 * 60 * 1000);
        if (t !== envkit.now()) throw new Error("wait resolved with " + t);
      }
      envkit.handover({ seen, now: envkit.now() });
    `);
    expect(r.sleeps).toEqual([START + 10 * MIN, START + 20 * MIN, START + 30 * MIN]);
    expect(r.calls).toEqual([
      { tool: "quote", args: { i: 0 }, at: START },
      { tool: "quote", args: { i: 1 }, at: START + 10 * MIN },
      { tool: "quote", args: { i: 2 }, at: START + 20 * MIN },
    ]);
    expect(payloadOf(r.end)).toEqual({ seen: [START, START + 10 * MIN, START + 20 * MIN], now: START + 30 * MIN });
    expect(r.endedAt).toBe(START + 30 * MIN);
  });

  it("a due trigger interrupts a wait: kind woken with the trigger", async () => {
    const r = await drive(
      "for (;;) { await envkit.tools.quote({}); await envkit.wait(envkit.now() + 10 * 60 * 1000); }",
      {
        before: (k) => k.addOnce("agent", "news", START + 25 * MIN),
      },
    );
    expect(r.end).toEqual({ kind: "woken", wake: { at: START + 25 * MIN, reason: "trigger", triggerId: "news" } });
    expect(r.calls.map((c) => c.at)).toEqual([START, START + 10 * MIN, START + 20 * MIN]);
    expect(r.endedAt).toBe(START + 25 * MIN);
  });

  it("a cron trigger also interrupts a wait", async () => {
    const r = await drive("await envkit.wait(envkit.now() + 5 * 86400000);", {
      before: (k) => k.addCron("agent", "daily", "0 9 * * *"),
    });
    expect(r.end).toEqual({ kind: "woken", wake: { at: START + 9 * HOUR, reason: "cron", triggerId: "daily" } });
  });

  it("a wait past the deadline ends the program at the deadline (reason sleep); envkit.deadline() reports it", async () => {
    const r = await drive(
      "if (envkit.deadline() !== envkit.now() + 3600000) throw new Error('bad deadline');\nawait envkit.wait(envkit.now() + 86400000);\nthrow new Error('never');",
      {
        deadline: START + HOUR,
      },
    );
    expect(r.end).toEqual({ kind: "woken", wake: { at: START + HOUR, reason: "sleep" } });
    expect(r.sleeps).toEqual([START + HOUR]);
  });

  it("a wait exactly to the deadline ends the program; a wait before it resumes", async () => {
    const r = await drive(
      "await envkit.wait(envkit.now() + 1800000);\nawait envkit.wait(envkit.deadline());\nthrow new Error('never');",
      {
        deadline: START + HOUR,
      },
    );
    expect(r.end).toEqual({ kind: "woken", wake: { at: START + HOUR, reason: "sleep" } });
    expect(r.sleeps).toEqual([START + 30 * MIN, START + HOUR]);
  });

  it("envkit.deadline() is null without a deadline; the end of the experiment wakes with reason end", async () => {
    const r = await drive(
      "if (envkit.deadline() !== null) throw new Error('x');\nfor (;;) await envkit.wait(envkit.now() + 6 * 3600000);",
      { days: 1 },
    );
    expect(r.end).toEqual({ kind: "woken", wake: { at: START + DAY, reason: "end" } });
    expect(r.sleeps).toHaveLength(4);
  });

  it("a deadline before now is refused", async () => {
    const k = new Kernel({ start: START, end: START + DAY });
    let end: ProgramEnd | undefined;
    k.spawn("agent", async (actor) => {
      end = await runProgram({
        source: "1",
        path: "p.js",
        actor,
        deadline: START - 1,
        wrappers: {},
        workspace: tmpWorkspace(),
      });
    });
    await k.run();
    expect(errorOf(end as ProgramEnd)).toMatch(/until 2026-02-28T23:59:59.999Z is before now/);
  });

  it("a program that finishes without handing over returns", async () => {
    const r = await drive("const x = 1 + 1;\nawait envkit.wait(envkit.now() + 60000);");
    expect(r.end).toEqual({ kind: "returned" });
    expect(r.endedAt).toBe(START + MIN);
  });

  it("handover: payload up to 16 KB of JSON; larger is an error the program may catch", async () => {
    const ok = await drive(`envkit.handover("${"x".repeat(16_384 - 2)}")`);
    expect(payloadOf(ok.end)).toBe("x".repeat(16_382));
    const big = await drive(`envkit.handover("${"x".repeat(16_384 - 1)}")`);
    expect(errorOf(big.end)).toMatch(
      /^RangeError: envkit\.handover: payload is 16385 bytes of JSON; the limit is 16384 bytes\n {4}at .*watch\.js:1/,
    );
    const caught = await drive(
      `try { envkit.handover({ big: "y".repeat(20000) }); } catch (e) { envkit.handover({ error: e.message }); }`,
    );
    expect(payloadOf(caught.end)).toEqual({
      error: "envkit.handover: payload is 20010 bytes of JSON; the limit is 16384 bytes",
    });
  });

  it("wrapper results reach the program as {ok, value|error}", async () => {
    const r = await drive(
      "const a = await envkit.tools.quote({ s: 'A' });\nconst b = await envkit.tools.quote({ s: 'B' });\nenvkit.handover({ a, b });",
      {
        result: (_tool, args) =>
          (args as { s: string }).s === "A"
            ? { ok: true, value: { px: 101.5 } }
            : { ok: false, error: "rate limited (api): retry after 60 s" },
      },
    );
    expect(payloadOf(r.end)).toEqual({
      a: { ok: true, value: { px: 101.5 } },
      b: { ok: false, error: "rate limited (api): retry after 60 s" },
    });
  });

  it("calls issued before a wait run before the clock moves, in issue order", async () => {
    const r = await drive(`
      const p1 = envkit.tools.quote({ n: 1 });
      const p2 = envkit.tools.quote({ n: 2 });
      await envkit.wait(envkit.now() + 60000);
      envkit.handover([(await p1).value.at, (await p2).value.at]);
    `);
    expect(r.calls.map((c) => [c.args, c.at])).toEqual([
      [{ n: 1 }, START],
      [{ n: 2 }, START],
    ]);
    expect(payloadOf(r.end)).toEqual([START, START]);
  });

  it("two pending waits at once are refused", async () => {
    const r = await drive("const a = envkit.wait(envkit.now() + 1000);\nconst b = envkit.wait(envkit.now() + 2000);");
    expect(errorOf(r.end)).toMatch(/^Error: envkit\.wait: another wait is already pending.*\n {4}at .*watch\.js:2/s);
  });

  it("the step budget resets at each wait", async () => {
    // ~60,000 iterations between waits fits a budget of 20 polls; the total across waits does not
    const src =
      "let s = 0;\nfor (let k = 0; k < 6; k++) {\n  for (let i = 0; i < 30000; i++) s += i;\n  await envkit.wait(envkit.now() + 60000);\n}\nenvkit.handover(s);";
    const r = await drive(src, { stepBudget: 20 });
    expect(payloadOf(r.end)).toBe(6 * ((30000 * 29999) / 2));
    const noWaits = await drive(src.replace("await envkit.wait(envkit.now() + 60000);", ""), { stepBudget: 20 });
    expect(errorOf(noWaits.end)).toMatch(/^step budget exceeded: 20 interrupt polls/);
  });

  it("envkit.workspace reads, writes and lists inside the jail", async () => {
    const ws = tmpWorkspace();
    ws.writeFile("state.json", '{"seen":3}');
    const r = await drive(
      "const s = JSON.parse(envkit.workspace.read('state.json'));\nenvkit.workspace.write('out/log.txt', 'seen ' + s.seen);\nenvkit.handover(envkit.workspace.list('out'));",
      { workspace: ws },
    );
    expect(payloadOf(r.end)).toEqual([{ name: "log.txt", type: "file", bytes: 6 }]);
    expect(ws.readText("out/log.txt")).toBe("seen 3");
    const esc = await drive("envkit.workspace.read('../../etc/passwd');", { workspace: ws });
    expect(errorOf(esc.end)).toMatch(
      /^Error: envkit\.workspace\.read: read: "\.\.\/\.\.\/etc\/passwd" escapes the workspace.*\n {4}at .*watch\.js:1/s,
    );
  });

  it("Date reads simulated time in UTC; Math.random is seeded", async () => {
    const src = `await envkit.wait(envkit.now() + 90 * 60000);
      envkit.handover({
        now: Date.now(), d: new Date().getTime(), s: String(new Date()), call: Date(),
        local: new Date(2026, 2, 1, 10).toISOString(), parsed: Date.parse("2026-03-01T10:00:00"),
        offset: new Date().getTimezoneOffset(), hours: new Date().getHours(), other: Date.parse("March 1, 2026"),
        r: [Math.random(), Math.random(), Math.random()],
      });`.replace('other: Date.parse("March 1, 2026")', 'other: String(Date.parse("March 1, 2026"))');
    const a = payloadOf((await drive(src)).end) as Record<string, unknown>;
    const t = START + 90 * MIN;
    expect(a).toMatchObject({
      now: t,
      d: t,
      s: "2026-03-01T01:30:00.000Z",
      call: "2026-03-01T01:30:00.000Z",
      local: "2026-03-01T10:00:00.000Z",
      parsed: Date.parse("2026-03-01T10:00:00Z"),
      offset: 0,
      hours: 1,
      other: "NaN",
    });
    const b = payloadOf((await drive(src)).end) as Record<string, unknown>;
    expect(b.r).toEqual(a.r);
    const c = payloadOf((await drive(src, { randomSeed: 2 })).end) as Record<string, unknown>;
    expect(c.r).not.toEqual(a.r);
    for (const x of a.r as number[]) expect(x >= 0 && x < 1).toBe(true);
  });

  it("a wrapper that throws (a system error) rejects runProgram; the sandbox is released and stays usable", async () => {
    const k = new Kernel({ start: START, end: START + DAY });
    let caught: unknown;
    k.spawn("agent", async (actor) => {
      try {
        await runProgram({
          source: "const p = envkit.tools.quote({});\nawait envkit.wait(envkit.now() + 1000);",
          path: "p.js",
          actor,
          deadline: null,
          wrappers: {
            quote: async () => {
              throw new Error("database is gone");
            },
          },
          workspace: tmpWorkspace(),
        });
      } catch (e) {
        caught = e;
      }
    });
    await k.run();
    expect((caught as Error).message).toBe("database is gone");
    expect(payloadOf((await drive("envkit.handover(2);")).end)).toBe(2);
  });

  it("a program awaiting a promise nothing can settle is an error", async () => {
    const r = await drive("await new Promise(() => {});");
    expect(errorOf(r.end)).toMatch(/can never settle/);
  });

  it("determinism: same source, wrapper results and clock give the same waits, calls and result", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 240 }), fc.integer({ min: 1, max: 30 }), async (everyMin, polls) => {
        const src = `let n = 0, sum = 0;
          while (n < ${polls}) {
            const q = await envkit.tools.quote({ n });
            sum += q.value.at % 997 + Math.floor(Math.random() * 1000);
            n++;
            await envkit.wait(envkit.now() + ${everyMin} * 60000);
          }
          envkit.handover({ n, sum, at: new Date().toISOString() });`;
        const a = await drive(src, { days: 3 });
        const b = await drive(src, { days: 3 });
        expect(b.end).toEqual(a.end);
        expect(b.sleeps).toEqual(a.sleeps);
        expect(b.calls).toEqual(a.calls);
      }),
      { numRuns: 15 },
    );
  });

  it("240 runs in one kernel (every kind of ending) release cleanly and leave the sandbox usable", async () => {
    const kinds = [
      "envkit.handover({ i: envkit.now() });",
      "await envkit.tools.quote({}); const x = 1;",
      "await envkit.wait(envkit.now() + 1000);\nnull.x;",
      "throw 'plain';",
      "let x = ;",
      "await new Promise(() => {});",
      "const p = envkit.tools.quote({}); envkit.wait(envkit.now() + 5);",
      "function f() { return f() + 1 }\nf();",
    ];
    const k = new Kernel({ start: START, end: START + 30 * DAY });
    const ws = tmpWorkspace();
    const counts: Record<string, number> = {};
    const releaseFailures: string[] = [];
    k.spawn("agent", async (actor) => {
      for (let i = 0; i < 240; i++) {
        const end = await runProgram({
          source: kinds[i % kinds.length] as string,
          path: `p${i}.js`,
          actor,
          deadline: null,
          wrappers: { quote: async () => ({ ok: true, value: 1 }) },
          workspace: ws,
          onReleaseFailure: (m) => releaseFailures.push(m),
        });
        counts[end.kind] = (counts[end.kind] ?? 0) + 1;
      }
    });
    await k.run();
    expect(counts).toEqual({ handover: 30, returned: 60, error: 150 });
    // every handle was disposed: QuickJS's runtime release asserts that no object is left
    expect(releaseFailures).toEqual([]);
    const after = await drive("await envkit.wait(envkit.now() + 1000);\nenvkit.handover('fine');");
    expect(payloadOf(after.end)).toBe("fine");
  }, 900_000);
});

describe("validateProgram", () => {
  const base = { toolNames: ["quote"], now: START, deadline: null };

  it("reports syntax errors with line and column", async () => {
    const r = await validateProgram({
      ...base,
      source: "const a = 1;\n\nlet b = ;\n",
      path: "w.js",
      workspace: tmpWorkspace(),
    });
    expect(r).toEqual({ ok: false, error: "SyntaxError: unexpected token in expression: ';'\n    at w.js:3:9" });
  });

  it("reports runtime errors before the first envkit call with the line", async () => {
    const r = await validateProgram({
      ...base,
      source: "const t = envkit.now();\nconst x = t.nope.deeper;",
      path: "w.js",
      workspace: tmpWorkspace(),
    });
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.error).toMatch(
      /^TypeError: cannot read property 'deeper' of undefined\n {4}at <anonymous> \(w\.js:2:/,
    );
  });

  it("stops at the first envkit call with an effect: no wrapper, no wait, no write, no clock", async () => {
    const ws = tmpWorkspace();
    for (const first of [
      "await envkit.tools.quote({});",
      "await envkit.wait(envkit.now() + 1000);",
      "envkit.workspace.write('x.txt', 'y');",
      "envkit.handover(1);",
      "try { await envkit.tools.quote({}); } catch (e) {}",
    ]) {
      const r = await validateProgram({
        ...base,
        source: `${first}\nthis_would_crash();`,
        path: "w.js",
        workspace: ws,
      });
      expect(r, first).toEqual({ ok: true });
    }
    expect(ws.ls()).toEqual([]);
  });

  it("still checks arguments of the stopping call and catches loops before it", async () => {
    const past = await validateProgram({
      ...base,
      source: "await envkit.wait(envkit.now() - 5);",
      path: "w.js",
      workspace: tmpWorkspace(),
    });
    expect(past.ok ? "" : past.error).toMatch(/^RangeError: envkit\.wait\(until\): until .* is before now/);
    const loop = await validateProgram({
      ...base,
      source: "for (;;) {}",
      path: "w.js",
      workspace: tmpWorkspace(),
      stepBudget: 5,
    });
    expect(loop).toEqual({ ok: false, error: expect.stringMatching(/^step budget exceeded: 5 interrupt polls/) });
    const stuck = await validateProgram({
      ...base,
      source: "await new Promise(() => {});",
      path: "w.js",
      workspace: tmpWorkspace(),
    });
    expect(stuck.ok ? "" : stuck.error).toMatch(/can never settle/);
  });

  it("a program that only reads and returns is valid", async () => {
    const ws = tmpWorkspace();
    ws.writeFile("a.txt", "hi");
    const r = await validateProgram({
      ...base,
      source: "const s = envkit.workspace.read('a.txt'); if (s !== 'hi') throw new Error(s);",
      path: "w.js",
      workspace: ws,
    });
    expect(r).toEqual({ ok: true });
  });
});

describe("failures of the sandbox runtime are contained", () => {
  it("an async function recursing through await, stopped by the step budget: QuickJS aborts at release; the end stands, nothing is printed, the next program runs", async () => {
    const failures: string[] = [];
    const printed: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
      printed.push(a.map(String).join(" "));
    });
    const spyW = vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    }) as typeof process.stderr.write);
    try {
      const r = await drive("async function f(n) { await null; return f(n + 1); }\nawait f(0);", {
        stepBudget: 20,
        onReleaseFailure: (m) => failures.push(m),
      });
      expect(errorOf(r.end)).toMatch(/^step budget exceeded: 20 interrupt polls/);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(
        /^watcher sandbox could not be released cleanly \(instance abandoned\): Aborted\(Assertion failed: list_empty\(&rt->gc_obj_list\)/,
      );
    } finally {
      spy.mockRestore();
      spyW.mockRestore();
    }
    expect(printed.filter((l) => /Aborted|Assertion/.test(l))).toEqual([]);
    const after = await drive("await envkit.wait(envkit.now() + 1000);\nenvkit.handover('fine');");
    expect(payloadOf(after.end)).toBe("fine");
  });

  it("every program gets its own instance: an out-of-memory program leaves the next one a whole, fresh memory", async () => {
    const cap = 16 * 1024 * 1024;
    const bomb = await drive("const a = [];\nfor (;;) a.push(new Uint8Array(1e6));", { memoryLimitBytes: cap });
    expect(errorOf(bomb.end)).toMatch(/^InternalError: out of memory \(memory cap 16 MB\)/);
    // 8 MB fits in a fresh 16 MiB sandbox (it would not in the exhausted one)
    const next = await drive("const b = new Uint8Array(8e6);\nb[0] = 1;\nenvkit.handover(b.length);", {
      memoryLimitBytes: cap,
    });
    expect(payloadOf(next.end)).toBe(8e6);
  });

  it("a stack cap above 256 KiB is refused (QuickJS would overrun the host's native stack first)", async () => {
    await expect(drive("1;", { maxStackBytes: 512 * 1024 })).rejects.toThrow(/maxStackBytes must be at most 262144/);
  });
});

describe("simulated time must advance", () => {
  it("a wait until now costs the step budget; a wait that moves the clock resets it", async () => {
    // 150 zero-advance waits, then a real one, then 150 more: within budget (200) each time
    const ok = await drive(
      "for (let i = 0; i < 150; i++) await envkit.wait(envkit.now());\nawait envkit.wait(envkit.now() + 1);\nfor (let i = 0; i < 150; i++) await envkit.wait(envkit.now());\nenvkit.handover(envkit.now());",
    );
    expect(payloadOf(ok.end)).toBe(START + 1);
    // 250 in a row: stopped at the 201st
    const stuck = await drive(
      "for (let i = 0; i < 250; i++) await envkit.wait(envkit.now());\nenvkit.handover('never');",
    );
    expect(errorOf(stuck.end)).toMatch(
      /without an envkit\.wait that moves time forward \(201 waits at 2026-03-01T00:00:00\.000Z did not/,
    );
    expect(stuck.sleeps).toHaveLength(201);
  });

  it("the call cap counts per instant: zero-advance waits do not reset it", async () => {
    const r = await drive(
      "for (let k = 0; k < 3; k++) { for (let i = 0; i < 150; i++) await envkit.tools.quote({ k, i }); await envkit.wait(envkit.now()); }",
    );
    expect(errorOf(r.end)).toMatch(
      /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait that moves time forward/,
    );
    expect(r.calls).toHaveLength(200);
    const moving = await drive(
      "for (let k = 0; k < 3; k++) { for (let i = 0; i < 150; i++) await envkit.tools.quote({ k, i }); await envkit.wait(envkit.now() + 1000); }\nenvkit.handover('ok');",
    );
    expect(payloadOf(moving.end)).toBe("ok");
    expect(moving.calls).toHaveLength(450);
  });
});
