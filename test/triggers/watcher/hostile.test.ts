import { describe, expect, it } from "vitest";
import type { ProgramEnd } from "../../../src/triggers/watcher/run-program.js";
import { DAY, drive, MIN, START } from "./helpers.js";

/**
 * R3 (spec/quality.md): hostile watcher programs are all contained with a clear error (or a
 * harmless result), the host is unaffected, and the next program runs normally.
 */

type Expect = { error: RegExp } | { payload: unknown } | { woken: string };

interface Case {
  name: string;
  source: string;
  expect: Expect;
  /** extra assertions on the run */
  check?: (r: Awaited<ReturnType<typeof drive>>) => void;
  opts?: Parameters<typeof drive>[1];
  /** QuickJS aborts in JS_FreeRuntime after this program (contained: reported, instance dropped) */
  releaseMayFail?: boolean;
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
  // ---- second wave (issue 11) ----
  // async and generator recursion
  {
    name: "async recursion through await",
    source: "async function f(n) { await null; return f(n + 1); }\nawait f(0);",
    expect: {
      error:
        /^(InternalError: out of memory \(memory cap 64 MB\)|.*\(the sandbox.s memory had grown to [\d.]+ MB of its 64 MB cap: probably out of memory\)$)/,
    },
    releaseMayFail: true,
  },
  {
    name: "async recursion without await",
    source: "async function f(n) { return f(n + 1); }\nawait f(0);",
    expect: { error: /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at / },
  },
  {
    name: "async recursion through a data tool call",
    source: "async function f(n) { await envkit.tools.quote({ n }); return f(n + 1); }\nawait f(0);",
    expect: {
      error:
        /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait that moves time forward \(all at 2026-03-01T00:00:00\.000Z; last: quote\)/,
    },
    check: (r) => expect(r.calls).toHaveLength(200),
  },
  {
    name: "async recursion through awaited promises, caught",
    source:
      "async function f(n) { try { await Promise.resolve(n); return await f(n + 1); } catch (e) { return f(n + 1); } }\nawait f(0);",
    expect: {
      error: /^InternalError: out of memory \(memory cap 64 MB\): the sandbox.s memory is exhausted$/,
    },
    // like the uncaught case above: where the out-of-memory error lands among the pending async
    // frames decides whether JS_FreeRuntime finds objects left on its GC list (seen once in CI,
    // never locally); either way the program ended with this error and its instance was dropped
    releaseMayFail: true,
  },
  {
    name: "generator recursion",
    source: "function* g() { yield* g(); }\n[...g()];",
    expect: { error: /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at / },
  },
  {
    name: "async generator recursion",
    source: "async function* g() { yield* g(); }\nfor await (const x of g()) {}",
    expect: { error: /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at / },
  },
  {
    name: "endless generator consumed",
    source: "function* g() { for (let i = 0; ; i++) yield i; }\nfor (const x of g()) {}",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
  },
  {
    name: "microtask loop",
    source: "function loop() { Promise.resolve().then(loop); }\nloop();",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
  },
  {
    name: "promise-chain bomb",
    source: "let p = Promise.resolve();\nfor (;;) p = p.then(() => {});",
    expect: {
      error:
        /^(InternalError: out of memory \(memory cap 64 MB\)|.*\(the sandbox.s memory had grown to [\d.]+ MB of its 64 MB cap: probably out of memory\)$)/,
    },
  },
  {
    name: "recursion through a Proxy get trap",
    source: "const p = new Proxy({}, { get: (t, k, r) => r[k] });\np.x;",
    expect: {
      error:
        /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at get \(watch\.js:1:\d+\) \(×\d+\)/,
    },
  },
  {
    name: "recursion through toString",
    source: "const o = { toString() { return '' + o; } };\nString(o);",
    expect: {
      error:
        /^stack overflow: InternalError: stack overflow \(stack cap 192 KB\)\n {4}at toString \(watch\.js:1:\d+\) \(×\d+\)/,
    },
  },
  // zero-advance and past waits
  {
    name: "zero-advance wait loop",
    source: "for (;;) await envkit.wait(envkit.now());",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait that moves time forward \(201 waits at 2026-03-01T00:00:00\.000Z did not; each costs 1 poll\); wait for a later time/,
    },
    check: (r) => {
      expect(r.sleeps).toEqual(new Array(201).fill(START));
      expect(r.endedAt).toBe(START);
    },
  },
  {
    name: "zero-advance wait loop with Date.now()",
    source: "for (;;) await envkit.wait(Date.now());",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait that moves time forward \(201 waits at 2026-03-01T00:00:00\.000Z did not; each costs 1 poll\); wait for a later time/,
    },
    check: (r) => expect(r.endedAt).toBe(START),
  },
  {
    name: "zero-advance waits between data tool calls",
    source: "for (;;) { await envkit.tools.quote({}); await envkit.wait(envkit.now()); }",
    expect: {
      error:
        /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait that moves time forward \(all at 2026-03-01T00:00:00\.000Z; last: quote\)/,
    },
    check: (r) => {
      expect(r.calls).toHaveLength(200);
      expect(r.calls.every((c) => c.at === START)).toBe(true);
    },
  },
  {
    name: "sub-millisecond waits are whole milliseconds",
    source: "for (let i = 0; i < 5; i++) await envkit.wait(envkit.now() + 0.001);\nenvkit.handover(envkit.now());",
    expect: { payload: START + 5 },
    check: (r) => expect(r.sleeps).toEqual([START + 1, START + 2, START + 3, START + 4, START + 5]),
  },
  {
    name: "past waits in a loop, caught",
    source: "for (;;) { try { await envkit.wait(envkit.now() - 60000); } catch (e) {} }",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
    check: (r) => expect(r.sleeps).toEqual([]),
  },
  {
    name: "past waits between calls, caught",
    source: "for (;;) { await envkit.tools.quote({}); try { await envkit.wait(0); } catch (e) {} }",
    expect: {
      error:
        /^wrapper flood: more than 200 envkit\.tools calls without an envkit\.wait that moves time forward \(all at 2026-03-01T00:00:00\.000Z; last: quote\)/,
    },
    check: (r) => expect(r.calls).toHaveLength(200),
  },
  {
    name: "waiting on NaN",
    source: "await envkit.wait(NaN);",
    expect: { error: /^TypeError: envkit\.wait\(until\): until must be finite, got NaN\n {4}at .*watch\.js:1/ },
  },
  {
    name: "waiting on a Date object",
    source: "await envkit.wait(new Date(envkit.now() + 60000));",
    expect: { error: /^TypeError: envkit\.wait\(until\): until must be an epoch-ms number .*got object/ },
  },
  {
    name: "waiting to the largest number ends at the end of the experiment",
    source: "await envkit.wait(Number.MAX_VALUE);\nenvkit.handover('never');",
    expect: { woken: "end" },
  },
  {
    name: "a second wait while one is pending",
    source: "envkit.wait(envkit.now() + 1000);\nawait envkit.wait(envkit.now() + 2000);",
    expect: { error: /^Error: envkit\.wait: another wait is already pending/ },
  },
  // typed-array and string allocation bombs under a real byte cap (16 MiB)
  {
    name: "typed-array bomb",
    source: "const a = [];\nfor (;;) a.push(new Uint8Array(1e6));",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "Float64Array bomb",
    source: "const a = [];\nfor (;;) a.push(new Float64Array(1e5).fill(1.5));",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "one huge ArrayBuffer",
    source: "new ArrayBuffer(2 ** 30);",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "ArrayBuffer.prototype.resize bomb",
    source: "const b = new ArrayBuffer(1, { maxByteLength: 2 ** 30 });\nb.resize(2 ** 30);",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "string repeat bomb under 16 MiB",
    source: "const s = 'x'.repeat(1e8);",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "string join bomb",
    source: "const a = [];\nfor (;;) a.push(new Array(1000).fill('yy').join('') + a.length);",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "string doubling bomb",
    source: "let s = 'ab';\nconst keep = [];\nfor (;;) { s = s + s + 'c'; keep.push(s.slice(1)); }",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "padStart bomb",
    source: "''.padStart(2 ** 28, 'ab');",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "Map bomb",
    source: "const m = new Map();\nfor (let i = 0; ; i++) m.set(i, { i });",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\): the sandbox.s memory is exhausted$/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "out of memory caught: the program may carry on in its own sandbox",
    source:
      "let a = [];\ntry { for (;;) a.push(new Uint8Array(1e6)); } catch (e) { a = null; }\nawait envkit.wait(envkit.now() + 60000);\nenvkit.handover('after');",
    expect: { payload: "after" },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  {
    name: "JSON.stringify bomb",
    source: "const a = [];\nfor (;;) a.push(JSON.stringify(new Array(1e4).fill({ x: 1 })));",
    expect: { error: /^InternalError: out of memory \(memory cap 16 MB\)\n {4}at .*watch\.js:\d/ },
    opts: { memoryLimitBytes: 16 * 1024 * 1024 },
  },
  // prototype and toJSON pollution
  {
    name: "Object.prototype.toJSON pollution, then an Error",
    source: "Object.prototype.toJSON = function () { return 'polluted'; };\nthrow new Error('boom');",
    expect: { error: /^Error: boom\n {4}at .*watch\.js:2/ },
  },
  {
    name: "Object.prototype.toJSON pollution, then a thrown object",
    source: "Object.prototype.toJSON = () => { throw new Error('no'); };\nthrow { code: 7 };",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{"code":7\}$/ },
  },
  {
    name: "toJSON pollution only changes the program's own payload",
    source: "Object.prototype.toJSON = function () { return 'polluted'; };\nenvkit.handover({ a: 1 });",
    expect: { payload: "polluted" },
  },
  {
    name: "envkit reply protocol keys on Object.prototype",
    source:
      "Object.prototype.halt = 1;\nObject.prototype.e = 'forged';\nObject.prototype.v = 'forged';\nconst r = await envkit.tools.quote({});\nenvkit.handover({ ok: r.ok, t: envkit.now() });",
    expect: { payload: { ok: true, t: START } },
  },
  {
    name: "Error.prototype.name getter that loops",
    source: "Object.defineProperty(Error.prototype, 'name', { get() { for (;;) {} } });\nthrow new Error('boom');",
    expect: { error: /^\(name is a getter; not run\): boom\n {4}at .*watch\.js:2/ },
  },
  {
    name: "Error.prototype.stack and message getters that throw",
    source:
      "Object.defineProperty(Error.prototype, 'message', { get() { throw 1; } });\nconst e = Object.create(Error.prototype);\nthrow e;",
    expect: { error: /^Error: \(message is a getter; not run\) \(in watch\.js\)$/ },
  },
  {
    name: "String and Array prototype pollution before a throw",
    source:
      "String.prototype.slice = () => { throw 1; };\nString.prototype.split = null;\nArray.prototype.join = null;\nArray.isArray = () => { throw 2; };\nthrow new TypeError('still readable');",
    expect: { error: /^TypeError: still readable\n {4}at .*watch\.js:5/ },
  },
  {
    name: "Symbol.prototype.toString pollution before throwing a Symbol",
    source: "Symbol.prototype.toString = () => 'forged';\nthrow Symbol('s');",
    expect: { error: /^uncaught exception: the program threw a symbol \(not an Error\): Symbol\(s\)$/ },
  },
  {
    name: "Reflect and JSON replaced: envkit still works",
    source:
      "Reflect.apply = null;\nReflect.getOwnPropertyDescriptor = null;\nJSON.parse = () => ({ ok: false });\nconst r = await envkit.tools.quote({ a: 1 });\nenvkit.handover(r.value.args);",
    expect: { payload: { a: 1 } },
  },
  // thrown Proxies, Symbols, getters and other exotic values
  {
    name: "thrown Proxy with a get trap returning ''",
    source: "throw new Proxy({}, { get() { return ''; } });",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{\}$/ },
  },
  {
    name: "thrown Proxy whose traps all throw",
    source:
      "throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; }, ownKeys() { throw 3; }, getOwnPropertyDescriptor() { throw 4; } });",
    expect: {
      error:
        /^uncaught exception: the program threw an object \(not an Error\): \(an object that could not be inspected, perhaps a Proxy\)$/,
    },
  },
  {
    name: "thrown Proxy whose trap loops",
    source: "throw new Proxy({}, { getPrototypeOf() { for (;;) {} } });",
    expect: {
      error:
        /^uncaught exception: the program threw an object \(not an Error\): \(a value that could not be inspected, perhaps a Proxy\)$/,
    },
  },
  {
    name: "thrown Proxy whose trap calls envkit",
    source: "throw new Proxy({}, { getPrototypeOf() { envkit.handover('from a trap'); return null; } });",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{\}$/ },
  },
  {
    name: "thrown revoked Proxy",
    source: "const { proxy, revoke } = Proxy.revocable({}, {});\nrevoke();\nthrow proxy;",
    expect: {
      error:
        /^uncaught exception: the program threw an object \(not an Error\): \(an object that could not be inspected, perhaps a Proxy\)$/,
    },
  },
  {
    name: "thrown Proxy of an Error",
    source: "throw new Proxy(new RangeError('wrapped'), {});",
    expect: { error: /^RangeError: wrapped\n {4}at .*watch\.js:1/ },
  },
  {
    name: "thrown Symbol",
    source: "throw Symbol('secret');",
    expect: { error: /^uncaught exception: the program threw a symbol \(not an Error\): Symbol\(secret\)$/ },
  },
  {
    name: "thrown object with a throwing getter",
    source: "throw { get x() { throw new Error('getter'); }, y: 2 };",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{"x":\(a getter\),"y":2\}$/ },
  },
  {
    name: "thrown object with a throwing toString and Symbol.toPrimitive",
    source: "throw { toString() { throw 1; }, [Symbol.toPrimitive]() { throw 2; }, code: 'E1' };",
    expect: {
      error:
        /^uncaught exception: the program threw an object \(not an Error\): \{"toString":\(a function\),"code":"E1"\}$/,
    },
  },
  {
    name: "thrown function",
    source: "throw function secret() {};",
    expect: { error: /^uncaught exception: the program threw a function \(not an Error\): \(a function\)$/ },
  },
  {
    name: "thrown BigInt",
    source: "throw 12345678901234567890n;",
    expect: { error: /^uncaught exception: the program threw a bigint \(not an Error\): 12345678901234567890n$/ },
  },
  {
    name: "thrown empty string",
    source: "throw '';",
    expect: { error: /^uncaught exception: the program threw a string \(not an Error\): ""$/ },
  },
  {
    name: "thrown huge string is clipped",
    source: "throw 'q'.repeat(1e6);",
    expect: {
      error: /^uncaught exception: the program threw a string \(not an Error\): "q{199}… \(1000002 characters\)$/,
    },
  },
  {
    name: "Error with a huge message is clipped",
    source: "throw new Error('m'.repeat(1e6));",
    expect: { error: /^Error: m{2000}… \(1000000 characters\)\n {4}at .*watch\.js:1/ },
  },
  {
    name: "thrown deeply nested object",
    source: "let o = {};\nfor (let i = 0; i < 1e4; i++) o = { o };\nthrow o;",
    expect: {
      error: /^uncaught exception: the program threw an object \(not an Error\): \{"o":\{"o":\{"o":\{…\}\}\}\}$/,
    },
  },
  {
    name: "thrown object without a prototype",
    source: "const o = Object.create(null);\no.k = 1;\nthrow o;",
    expect: { error: /^uncaught exception: the program threw an object \(not an Error\): \{"k":1\}$/ },
  },
  {
    name: "rejection with an exotic value from a data tool callback",
    source: "await envkit.tools.quote({}).then(() => { throw new Proxy([1, 2], {}); });",
    expect: { error: /^uncaught exception: the program threw an array \(not an Error\): \[1,2\]$/ },
  },
  // more envkit tampering
  {
    name: "Object.setPrototypeOf(envkit, ...)",
    source: "Object.setPrototypeOf(envkit, { wait: () => 0 });",
    expect: { error: /^TypeError: object is not extensible/ },
  },
  {
    name: "delete envkit.wait",
    source: "delete envkit.wait;",
    expect: { error: /^TypeError: could not delete property\n {4}at .*watch\.js:1/ },
  },
  {
    name: "Object.prototype.then makes every promise a thenable (only the program breaks)",
    source:
      "Object.prototype.then = function (r) { r('forged'); };\nconst t = await envkit.wait(envkit.now() + 60000);\nenvkit.handover(t);",
    expect: { payload: START + MIN },
  },
  {
    name: "Function.prototype.apply/call/bind replaced",
    source:
      "Function.prototype.apply = null;\nFunction.prototype.call = null;\nFunction.prototype.bind = null;\nconst r = await envkit.tools.quote({ a: 2 });\nenvkit.handover(r.value.args);",
    expect: { payload: { a: 2 } },
  },
  // more escapes
  {
    name: "Function constructor via a generator",
    source:
      "const GF = Object.getPrototypeOf(function* () {}).constructor;\nenvkit.handover(GF('yield typeof require')().next().value);",
    expect: { payload: "undefined" },
  },
  {
    name: "import.meta",
    source: "envkit.handover(Object.keys(import.meta));",
    expect: { payload: [] },
  },
  {
    name: "std/os modules",
    source: "import * as os from 'os';\nos.exec(['id']);",
    expect: { error: /^ReferenceError: could not load module 'os'/ },
  },
  // more infinite loops
  {
    name: "infinite loop in finally",
    source: "try { throw 1; } finally { for (;;) {} }",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
  },
  {
    name: "infinite loop inside a data tool callback",
    source: "await envkit.tools.quote({}).then(() => { for (;;) {} });",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
    check: (r) => expect(r.calls).toHaveLength(1),
  },
  {
    name: "infinite loop in a regular expression (catastrophic backtracking)",
    source: "/^(a+)+$/.test('a'.repeat(40) + 'b');",
    expect: {
      error:
        /^step budget exceeded: 200 interrupt polls \(about 2000000 operations\) without an envkit\.wait; a watcher must wait between checks$/,
    },
  },
  // oversized and hostile handovers
  {
    name: "handover of a deeply nested array",
    source: "let a = [];\nfor (let i = 0; i < 1e5; i++) a = [a];\nenvkit.handover(a);",
    expect: { error: /^stack overflow: the program exhausted the sandbox.s native stack/ },
  },
  {
    name: "handover with a throwing getter",
    source: "envkit.handover({ get x() { throw new Error('getter in payload'); } });",
    expect: { error: /^TypeError: envkit\.handover payload: not JSON-serializable \(getter in payload\)/ },
  },
  {
    name: "oversized handover caught, then a huge workspace write",
    source:
      "try { envkit.handover('z'.repeat(20000)); } catch (e) {}\nenvkit.workspace.write('big.txt', 'w'.repeat(2 * 1024 * 1024));",
    expect: {
      error:
        /^Error: envkit\.workspace\.write: write_file: content is 2097152 bytes; a file may hold at most 1048576 bytes/,
    },
  },
];

async function canary(): Promise<ProgramEnd> {
  const r = await drive(
    "await envkit.wait(envkit.now() + 60000);\nenvkit.handover({ polluted: typeof ({}).polluted, map: typeof [].map, json: JSON.stringify({ a: 1 }), t: Date.now() });",
  );
  return r.end;
}

describe("R3: hostile watcher programs are contained", () => {
  it(`covers at least 70 hostile programs (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(70);
  });

  it.each(CASES)("$name", async (c) => {
    const releaseFailures: string[] = [];
    const r = await drive(c.source, { days: 2, ...c.opts, onReleaseFailure: (m) => releaseFailures.push(m) });
    if ("error" in c.expect) {
      expect(r.end.kind, JSON.stringify(r.end)).toBe("error");
      const error = r.end.kind === "error" ? r.end.error : "";
      expect(error).toMatch(c.expect.error);
      // a clear error: bounded, never empty
      expect(error.length).toBeGreaterThan(10);
      expect(error.length).toBeLessThan(3000);
    } else if ("woken" in c.expect) {
      expect(r.end).toMatchObject({ kind: "woken", wake: { reason: c.expect.woken } });
    } else {
      expect(r.end).toEqual({ kind: "handover", payload: c.expect.payload });
    }
    c.check?.(r);
    // every handle was released (QuickJS asserts on leaks), except where QuickJS itself cannot release
    if (!c.releaseMayFail) expect(releaseFailures).toEqual([]);
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
