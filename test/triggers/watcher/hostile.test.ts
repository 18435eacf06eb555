import { describe, expect, it } from "vitest";
import type { ProgramEnd } from "../../../src/triggers/watcher/run-program.js";
import { DAY, drive, MIN, START } from "./helpers.js";

/**
 * R3 (spec/quality.md): hostile watcher programs are all contained with a clear error (or a
 * harmless result), the host is unaffected, and the next program runs normally.
 */

type Expect = { error: RegExp } | { payload: unknown };

interface Case {
  name: string;
  source: string;
  expect: Expect;
  /** extra assertions on the run */
  check?: (r: Awaited<ReturnType<typeof drive>>) => void;
  opts?: Parameters<typeof drive>[1];
}

const CASES: Case[] = [
  // host access
  {
    name: "process",
    source: "process.exit(1);",
    expect: { error: /^ReferenceError: 'process' is not defined\n {4}at .*watch\.js:1/ },
  },
  {
    name: "globalThis.require",
    source: "globalThis.require('fs');",
    expect: { error: /^TypeError: not a function\n {4}at .*watch\.js:1/ },
  },
  {
    name: "require('child_process')",
    source: "require('child_process').execSync('id');",
    expect: { error: /^ReferenceError: 'require' is not defined/ },
  },
  {
    name: "dynamic import('fs')",
    source: "const fs = await import('fs');",
    expect: { error: /^ReferenceError: could not load module 'fs'/ },
  },
  {
    name: "static import",
    source: "import { readFileSync } from 'node:fs';\nreadFileSync('/etc/passwd');",
    expect: { error: /^ReferenceError: could not load module 'node:fs'/ },
  },
  // network
  {
    name: "fetch",
    source: "await fetch('http://127.0.0.1/');",
    expect: { error: /^ReferenceError: 'fetch' is not defined/ },
  },
  {
    name: "XMLHttpRequest",
    source: "new XMLHttpRequest();",
    expect: { error: /^ReferenceError: 'XMLHttpRequest' is not defined/ },
  },
  // wall clock
  {
    name: "wall clock reads give simulated time",
    source:
      "await envkit.wait(envkit.now() + 7 * 60000);\nenvkit.handover([Date.now(), new Date().valueOf(), +new Date(), Date()]);",
    expect: { payload: [START + 7 * MIN, START + 7 * MIN, START + 7 * MIN, "2026-03-01T00:07:00.000Z"] },
  },
  {
    name: "no performance/timers clock",
    source: "performance.now();",
    expect: { error: /^ReferenceError: 'performance' is not defined/ },
  },
  // Function-constructor and eval escapes reach only the sandbox's own global
  {
    name: "Function constructor 'return this'",
    source:
      "const g = (function () {}).constructor('return this')();\nenvkit.handover({ process: typeof g.process, require: typeof g.require, envkit: typeof g.envkit, same: g === globalThis });",
    expect: { payload: { process: "undefined", require: "undefined", envkit: "object", same: true } },
  },
  {
    name: "this.constructor.constructor",
    source: "this.constructor.constructor('return process')();",
    expect: { error: /^TypeError: cannot read property 'constructor' of undefined/ },
  },
  {
    name: "async function constructor",
    source:
      "const AF = (async () => {}).constructor;\nconst f = new AF('return typeof process');\nenvkit.handover(await f());",
    expect: { payload: "undefined" },
  },
  {
    name: "indirect eval",
    source: "envkit.handover({ p: (0, eval)('typeof process'), g: (0, eval)('this') === globalThis });",
    expect: { payload: { p: "undefined", g: true } },
  },
  {
    name: "eval('require')",
    source: "eval('require(\"fs\")');",
    expect: { error: /^ReferenceError: 'require' is not defined/ },
  },
  // tampering with envkit
  {
    name: "envkit.wait = ...",
    source: "envkit.wait = async () => 0;",
    expect: { error: /^TypeError: 'wait' is read-only\n {4}at .*watch\.js:1/ },
  },
  {
    name: "envkit.tools.quote = ...",
    source: "envkit.tools.quote = () => ({ ok: true, value: 'forged' });",
    expect: { error: /^TypeError: 'quote' is read-only/ },
  },
  {
    name: "redefine the envkit global",
    source: "Object.defineProperty(globalThis, 'envkit', { value: {} });",
    expect: { error: /^TypeError: property is not configurable/ },
  },
  {
    name: "assign the envkit global",
    source: "globalThis.envkit = { wait() {} };",
    expect: { error: /^TypeError: no setter for property/ },
  },
  {
    name: "prototype pollution stays in the sandbox",
    source:
      "Object.prototype.polluted = 'yes';\nArray.prototype.map = null;\nJSON.stringify = () => '\"forged\"';\nFunction.prototype.call = null;\nenvkit.handover({ kept: [1, 2] });",
    expect: { payload: { kept: [1, 2] } },
  },
  {
    name: "Promise.prototype.then tampering only breaks the program itself",
    source: "Promise.prototype.then = null;\nawait envkit.wait(envkit.now() + 60000);",
    expect: { error: /^TypeError: not a function/ },
  },
  // runaway work
  {
    name: "infinite loop",
    source: "for (;;) {}",
    expect: {
      error: /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait/,
    },
  },
  {
    name: "while(true) after a wait",
    source: "await envkit.wait(envkit.now() + 60000);\nwhile (true) {}",
    expect: { error: /^step budget exceeded/ },
    check: (r) => {
      expect(r.sleeps).toEqual([START + MIN]);
      expect(r.endedAt).toBe(START + MIN);
    },
  },
  {
    name: "catching the interrupt is impossible",
    source: "try { for (;;) {} } catch (e) { envkit.handover('escaped'); }",
    expect: { error: /^step budget exceeded/ },
  },
  {
    name: "deep recursion",
    source: "function f(n) { return f(n + 1) + 1; }\nf(0);",
    expect: {
      error:
        /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at f \(watch\.js:1:\d+\) \(×\d+\)/,
    },
  },
  {
    name: "native-stack bomb (deeply nested JSON)",
    source: "let s = '1';\nfor (let i = 0; i < 20000; i++) s = '[' + s + ']';\nJSON.parse(s);",
    expect: { error: /^stack overflow/ },
  },
  // memory
  {
    name: "allocation bomb: 'x'.repeat(1e9)",
    source: "const s = 'x'.repeat(1e9);",
    expect: { error: /^InternalError: out of memory \(memory cap 64 MB\)/ },
  },
  {
    name: "allocation bomb: big arrays",
    source: "const a = [];\nfor (;;) a.push(new Array(1e5).fill(1.5));",
    expect: { error: /^InternalError: out of memory \(memory cap 64 MB\)/ },
  },
  // handover abuse
  {
    name: "oversized handover",
    source: "envkit.handover({ blob: 'z'.repeat(17000) });",
    expect: { error: /^RangeError: envkit\.handover: payload is 17011 bytes of JSON; the limit is 16384 bytes/ },
  },
  {
    name: "handover of a function",
    source: "envkit.handover({ f() {} });",
    expect: {
      error: /^TypeError: envkit\.handover payload: not JSON-serializable \(a function at key "f" is not JSON\)/,
    },
  },
  {
    name: "handover of a cycle",
    source: "const o = {};\no.self = o;\nenvkit.handover(o);",
    expect: {
      error: /^TypeError: envkit\.handover payload: not JSON-serializable \(circular reference\)\n {4}at .*watch\.js:3/,
    },
  },
  {
    name: "handover of undefined",
    source: "envkit.handover(undefined);",
    expect: { error: /^TypeError: envkit\.handover payload: not JSON-serializable \(undefined\)/ },
  },
  {
    name: "re-entrant envkit calls from toJSON during handover",
    source: "envkit.handover({ toJSON() { envkit.wait(envkit.now() + 1000); envkit.tools.quote({}); return 'x'; } });",
    expect: { payload: "x" },
    check: (r) => {
      expect(r.sleeps).toEqual([]);
      expect(r.calls).toEqual([]);
    },
  },
  // time abuse
  {
    name: "waiting into the past",
    source: "await envkit.wait(envkit.now() - 1);",
    expect: {
      error:
        /^RangeError: envkit\.wait\(until\): until 2026-02-28T23:59:59\.999Z is before now 2026-03-01T00:00:00\.000Z/,
    },
  },
  {
    name: "waiting on a non-number",
    source: "await envkit.wait('tomorrow');",
    expect: { error: /^TypeError: envkit\.wait\(until\): until must be an epoch-ms number/ },
  },
  {
    name: "waiting forever",
    source: "await envkit.wait(Infinity);",
    expect: { error: /^TypeError: envkit\.wait\(until\): until must be finite/ },
  },
  // wrapper abuse
  {
    name: "wrapper flood",
    source: "for (;;) await envkit.tools.quote({});",
    expect: { error: /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait/ },
    check: (r) => expect(r.calls).toHaveLength(200),
  },
  {
    name: "unknown tool",
    source: "await envkit.tools.delete_everything({});",
    expect: { error: /^TypeError: not a function/ },
  },
  {
    name: "non-JSON tool arguments",
    source: "await envkit.tools.quote({ n: 1n });",
    expect: { error: /^TypeError: envkit\.tools\.quote arguments: not JSON-serializable/ },
  },
  // odd throws
  {
    name: "throwing a number",
    source: "throw 42;",
    expect: { error: /^uncaught exception: the program threw a number \(not an Error\): 42$/ },
  },
  {
    name: "throwing an object",
    source: "throw { code: 7 };",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{"code":7\}$/ },
  },
  {
    name: "throwing null",
    source: "throw null;",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): null$/ },
  },
  {
    name: "throwing an Error with a hostile message getter",
    source: "const e = new Error('x');\nObject.defineProperty(e, 'message', { get() { for (;;) {} } });\nthrow e;",
    expect: { error: /^(step budget exceeded|Error: )/ },
  },
  // missing host facilities
  {
    name: "setTimeout",
    source: "setTimeout(() => envkit.handover(1), 10);",
    expect: { error: /^ReferenceError: 'setTimeout' is not defined/ },
  },
  {
    name: "setInterval",
    source: "setInterval(() => {}, 10);",
    expect: { error: /^ReferenceError: 'setInterval' is not defined/ },
  },
  {
    name: "Atomics.wait",
    source: "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);",
    expect: { error: /^ReferenceError: 'Atomics' is not defined/ },
  },
  { name: "console", source: "console.log('hi');", expect: { error: /^ReferenceError: 'console' is not defined/ } },
  {
    name: "GC-dependent APIs are removed",
    source: "envkit.handover([typeof WeakRef, typeof FinalizationRegistry]);",
    expect: { payload: ["undefined", "undefined"] },
  },
];

async function canary(): Promise<ProgramEnd> {
  const r = await drive(
    "await envkit.wait(envkit.now() + 60000);\nenvkit.handover({ polluted: typeof ({}).polluted, map: typeof [].map, json: JSON.stringify({ a: 1 }), t: Date.now() });",
  );
  return r.end;
}

describe("R3: hostile watcher programs are contained", () => {
  it(`covers at least 20 hostile programs (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(CASES)("$name", async (c) => {
    const r = await drive(c.source, { days: 2, ...c.opts });
    if ("error" in c.expect) {
      expect(r.end.kind, JSON.stringify(r.end)).toBe("error");
      expect(r.end.kind === "error" ? r.end.error : "").toMatch(c.expect.error);
    } else {
      expect(r.end).toEqual({ kind: "handover", payload: c.expect.payload });
    }
    c.check?.(r);
    // the host is untouched ...
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect((globalThis as Record<string, unknown>).envkit).toBeUndefined();
    expect(typeof [].map).toBe("function");
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
    expect(r.endedAt).toBeLessThanOrEqual(START + 2 * DAY);
    // ... and so is the next program
    expect(await canary()).toEqual({
      kind: "handover",
      payload: { polluted: "undefined", map: "function", json: '{"a":1}', t: START + MIN },
    });
  });
});
