/**
 * JavaScript evaluated inside each fresh QuickJS context before a watcher program. It is a script
 * whose value is a setup function; the host calls it once with the raw host functions, the task's
 * data tool names, the Math.random seed, the simulated now and which requests it may queue itself
 * (bit 1: data tool calls, run mode; bit 2: waits, run mode outside a `when` gate). The raw
 * functions stay in its closure (they are never reachable from globalThis); only the frozen
 * `envkit` global is.
 *
 * Requests (README.md, "Requests"): a data tool call or wait the host would accept is queued in the
 * mailbox (`box`, `qName`, `qArgs`, returned to the host with the helpers) and its promise made
 * here; the host reads the mailbox after each run of the sandbox and settles the promise with
 * `settleCall` / `settleWait` (a wait's instant is the new simulated now, which `envkit.now()` and
 * `Date` read without a call out). Any other request goes to `raw.call` / `raw.wait`.
 *
 * Raw host protocol: `deadline()` returns a number (or null); every other raw function answers a
 * JSON string, either `{"v": value}`, `{"e": message, "t": "TypeError" | "RangeError" | "Error"}`
 * (thrown here as that error class, so the message carries the caller's line number) or
 * `{"halt": 1}` (the host has ended the program: handover done, validation stop, fatal misuse).
 * On halt the program spins until the host's interrupt handler, which now answers "stop", ends it
 * with an uncatchable interrupt.
 *
 * It also makes the sandbox deterministic: `Date` reads simulated time and renders in UTC,
 * `Math.random` is a seeded generator, `WeakRef` and `FinalizationRegistry` (whose behaviour
 * depends on garbage-collection timing) are removed.
 */
export const ENVKIT_PRELUDE_FILE = "<envkit>";

export const ENVKIT_PRELUDE = String.raw`(function setup(raw, toolNames, seed, now0, fast) {
  "use strict";
  const G = globalThis;
  const RealDate = Date;
  const DP = RealDate.prototype;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const isPrototypeOf = Object.prototype.isPrototypeOf;
  const objectToString = Object.prototype.toString;
  const ErrorProto = Error.prototype;
  const StringCtor = String;
  const dateGetTime = DP.getTime;
  const dateToISO = DP.toISOString;
  const dateToUTC = DP.toUTCString;
  const realParse = RealDate.parse;
  const realUTC = RealDate.UTC;
  const regexExec = RegExp.prototype.exec;
  const errors = { __proto__: null, TypeError, RangeError, Error };
  const hasOwn = Object.prototype.hasOwnProperty;
  const own = (o, k) => apply(hasOwn, o, [k]);
  const getOwn = Reflect.getOwnPropertyDescriptor;
  const getProto = Reflect.getPrototypeOf;
  const ownKeys = Reflect.ownKeys;
  const isArray = Array.isArray;
  const symbolToString = Symbol.prototype.toString;
  const stringSlice = String.prototype.slice;
  const PromiseCtor = Promise;

  // ---- simulated now: the host sends it with every entry into the sandbox (the clock cannot move
  // while the sandbox runs, so envkit.now() and Date read it without a call out to the host).
  // readNow is a function, not a variable read, so that each read costs the interpreter one call as
  // the host call it replaces did: the step budget (interrupt polls) runs out at the same point. ----
  let simNow = now0;
  const readNow = () => simNow;

  // ---- requests (see "Requests" in README.md). A request the host would accept is queued here, in
  // the mailbox the host reads after each run of the sandbox (property reads: no call out); any
  // other goes to raw.call / raw.wait, whose answer is an error or a halt (a JSON string). The host
  // re-checks every queued request. The promise is made here and settled by the host through
  // settleCall / settleWait below. Every path makes as many interpreter calls and jumps as it did
  // when each request was a host call (the step budget's interrupt polls count both, so it runs
  // out at the same point): hence noop() and the branch-free checks. ----
  const fastCalls = fast & 1; // run mode
  const fastWait = (fast >> 1) & 1; // run mode and waits allowed
  // top: the next call id; allow: calls left at this instant; off: set while the host describes an exception; w: the queued wait
  const box = { __proto__: null, top: 0, allow: 0, off: false, w: undefined };
  const qName = { __proto__: null };
  const qArgs = { __proto__: null };
  const reqRes = { __proto__: null };
  const reqRej = { __proto__: null };
  const noop = () => undefined;
  const isFiniteNumber = Number.isFinite;
  const NOT_A_NUMBER = 0 / 0;

  // ---- raw host results ----
  const halt = () => { for (;;) {} };
  const unwrap = (r) => {
    if (typeof r !== "string") return r;
    const o = parse(r);
    if (own(o, "halt")) halt();
    if (own(o, "e")) {
      const C = errors[o.t] || Error;
      throw new C(o.e);
    }
    return own(o, "v") ? o.v : undefined;
  };
  // unwrap of a string answer, for the request functions (which checked the type themselves)
  const unwrapText = (r) => {
    const o = parse(r);
    if (own(o, "halt")) halt();
    if (own(o, "e")) {
      const C = errors[o.t] || Error;
      throw new C(o.e);
    }
    return own(o, "v") ? o.v : undefined;
  };

  // ---- Date: simulated time, UTC everywhere ----
  const ISO = /^([+-]\d{6}|\d{4})(-\d{2}(-\d{2})?)?(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const parseIso = (s) => {
    s = StringCtor(s);
    const m = apply(regexExec, ISO, [s]);
    if (m === null) return NaN;
    if (m[4] !== undefined && m[7] === undefined) s = s + "Z";
    return apply(realParse, RealDate, [s]);
  };
  const iso = (t) => apply(dateToISO, construct(RealDate, [t]), []);
  function SimDate(...a) {
    if (new.target === undefined) return iso(readNow());
    let t;
    if (a.length === 0) t = readNow();
    else if (a.length === 1) {
      const v = a[0];
      if (typeof v === "object" && v !== null && apply(isPrototypeOf, DP, [v])) t = apply(dateGetTime, v, []);
      else if (typeof v === "string") t = parseIso(v);
      else t = +v;
    } else t = apply(realUTC, RealDate, a);
    return construct(RealDate, [t], new.target);
  }
  defineProperty(SimDate, "name", { value: "Date" });
  SimDate.prototype = DP;
  defineProperty(DP, "constructor", { value: SimDate, writable: true, configurable: true, enumerable: false });
  SimDate.now = function now() { return readNow(); };
  SimDate.parse = function parse(s) { return parseIso(s); };
  SimDate.UTC = realUTC;
  const local = ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"];
  for (const k of local) {
    defineProperty(DP, "get" + k, { value: DP["getUTC" + k], writable: true, configurable: true });
    if (k !== "Day") defineProperty(DP, "set" + k, { value: DP["setUTC" + k], writable: true, configurable: true });
  }
  const valid = (d) => { const t = apply(dateGetTime, d, []); return t === t; };
  const method = (name, fn) => defineProperty(DP, name, { value: fn, writable: true, configurable: true });
  method("getTimezoneOffset", function getTimezoneOffset() { return valid(this) ? 0 : NaN; });
  method("toString", function toString() { return valid(this) ? apply(dateToISO, this, []) : "Invalid Date"; });
  method("toLocaleString", function toLocaleString() { return valid(this) ? apply(dateToISO, this, []) : "Invalid Date"; });
  method("toDateString", function toDateString() { return valid(this) ? apply(dateToISO, this, []).slice(0, 10) : "Invalid Date"; });
  method("toLocaleDateString", function toLocaleDateString() { return valid(this) ? apply(dateToISO, this, []).slice(0, 10) : "Invalid Date"; });
  method("toTimeString", function toTimeString() { return valid(this) ? apply(dateToISO, this, []).slice(11) : "Invalid Date"; });
  method("toLocaleTimeString", function toLocaleTimeString() { return valid(this) ? apply(dateToISO, this, []).slice(11) : "Invalid Date"; });
  method("toGMTString", dateToUTC);
  G.Date = SimDate;

  // ---- Math.random: seeded (mulberry32) ----
  let state = seed >>> 0;
  Math.random = function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // ---- garbage-collection-dependent APIs ----
  delete G.WeakRef;
  delete G.FinalizationRegistry;

  // ---- envkit ----
  const toJson = (what, value) => {
    let s;
    try {
      s = stringify(value, (k, v) => {
        const t = typeof v;
        if (t === "function" || t === "symbol" || t === "bigint")
          throw new TypeError("a " + t + " at key " + stringify(k) + " is not JSON");
        if (t === "number" && !(v === v && v !== Infinity && v !== -Infinity))
          throw new TypeError(StringCtor(v) + " at key " + stringify(k) + " is not JSON");
        return v;
      });
    } catch (e) {
      throw new TypeError(what + ": not JSON-serializable (" + (e && e.message) + ")");
    }
    if (s === undefined) throw new TypeError(what + ": not JSON-serializable (" + typeof value + ")");
    return s;
  };
  const tools = {};
  for (const name of toolNames) {
    tools[name] = function (args) {
      const json = args === undefined ? undefined : toJson("envkit.tools." + name + " arguments", args);
      if (fastCalls & (box.allow > 0) & !box.off) {
        noop();
        const id = box.top;
        qName[id] = name;
        qArgs[id] = json;
        box.allow = box.allow - 1;
        box.top = id + 1;
        return new PromiseCtor((a, b) => { reqRes[id] = a; reqRej[id] = b; });
      }
      return unwrapText(raw.call(name, json));
    };
    defineProperty(tools[name], "name", { value: name });
  }
  const workspace = freeze({
    read(path) { return unwrap(raw.wsRead(path)); },
    write(path, content) { unwrap(raw.wsWrite(path, content)); },
    list(path) { return unwrap(raw.wsList(path === undefined ? "." : path)); },
  });
  const envkit = freeze({
    now() { return readNow(); },
    deadline() { return raw.deadline(); },
    wait(until) {
      // branch-free: x is until if it is a finite number (no coercion runs program code), else NaN;
      // u is Math.ceil(x) (exact for the instants accepted here)
      const x = [NOT_A_NUMBER, until][+isFiniteNumber(until)];
      const f = x % 1;
      const u = x - f + (f > 0);
      if (fastWait & !box.off & (box.w === undefined) & (u >= simNow)) {
        box.w = u;
        return new PromiseCtor((a, b) => { reqRes[-1] = a; reqRej[-1] = b; });
      }
      const o = parse(raw.wait(until));
      if (own(o, "halt")) halt();
      if (own(o, "e")) {
        const C = errors[o.t] || Error;
        throw new C(o.e);
      }
      return own(o, "v") ? o.v : undefined;
    },
    handover(payload) {
      unwrap(raw.handover(toJson("envkit.handover payload", payload)));
      halt();
    },
    workspace,
    tools: freeze(tools),
  });
  // an accessor: QuickJS lets Object.defineProperty replace a non-configurable data property of the global object
  defineProperty(G, "envkit", { get: function envkit_() { return envkit; }, configurable: false, enumerable: false });

  // ---- host helpers (returned to the host, never exposed to the program) ----
  // describe(e) reads a thrown value without running program code: no getters, toString, toJSON or
  // Symbol.toPrimitive; only property descriptors and prototypes (a Proxy's traps do run; the host
  // gives them a small poll budget and switches envkit off meanwhile). Its result is built from
  // null-prototype objects and primitive strings, so polluted prototypes cannot change it.
  const clip = (x, n) => (x.length > n ? apply(stringSlice, x, [0, n]) + "… (" + x.length + " characters)" : x);
  const prim = (v) => {
    const t = typeof v;
    if (t === "string") return stringify(v);
    if (t === "symbol") return apply(symbolToString, v, []);
    if (t === "bigint") return StringCtor(v) + "n";
    if (t === "function") return "(a function)";
    return StringCtor(v); // number, boolean, undefined, null
  };
  // a data property found on o or its prototypes (accessors are not run)
  const lookup = (o, k) => {
    for (let p = o, i = 0; p !== null && i < 64; p = getProto(p), i++) {
      const d = getOwn(p, k);
      if (d !== undefined) return own(d, "value") ? { __proto__: null, v: d.value } : { __proto__: null, getter: true };
    }
    return undefined;
  };
  const textField = (o, k, dflt) => {
    let f;
    try { f = lookup(o, k); } catch (x) { return "(" + k + " could not be read)"; }
    if (f === undefined) return dflt;
    if (f.getter === true) return "(" + k + " is a getter; not run)";
    if (typeof f.v === "string") return f.v;
    return typeof f.v === "object" && f.v !== null ? "(an object)" : prim(f.v);
  };
  const show = (v, depth) => {
    if ((typeof v !== "object" || v === null) && typeof v !== "function") return prim(v);
    if (typeof v === "function") return "(a function)";
    if (depth > 2) return isArray(v) ? "[…]" : "{…}";
    const arr = isArray(v);
    let out = "";
    let n = 0;
    const keys = ownKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k !== "string") continue;
      if (arr && k === "length") continue;
      const d = getOwn(v, k);
      if (d === undefined || d.enumerable !== true) continue;
      if (n === 12 || out.length > 200) { out = out + ",…"; break; }
      const val = own(d, "value") ? show(d.value, depth + 1) : "(a getter)";
      out = out + (n === 0 ? "" : ",") + (arr ? val : stringify(k) + ":" + val);
      n++;
    }
    return arr ? "[" + out + "]" : "{" + out + "}";
  };
  const FAILED = '{"thrown":"unknown","shown":"(an exception that could not be described)"}';
  return freeze({
    // settleCall(id, json): request id resolved with the parsed json; settleWait(json): the wait
    // resolved with the instant it ended at, which is the new now. Each is one parse and one
    // resolve call, as the host's fromJson and resolve calls before them: no branch, no try (the
    // step budget's interrupt polls count calls and jumps). If the parse throws, the host rejects
    // the request through reject(id, error).
    box,
    qName,
    qArgs,
    settleCall(id, s) {
      const res = reqRes[id];
      delete reqRes[id];
      delete qName[id];
      delete qArgs[id];
      res(parse(s));
      delete reqRej[id];
    },
    settleWait(s) {
      const res = reqRes[-1];
      delete reqRes[-1];
      const at = parse(s);
      simNow = at;
      res(at);
      delete reqRej[-1];
    },
    reject(id, e) {
      const rej = reqRej[id];
      delete reqRes[id];
      delete reqRej[id];
      rej(e);
    },
    setNow(t) { simNow = t; },
    describe(e) {
      try {
        const t = typeof e;
        if (t !== "object" || e === null) return stringify({ __proto__: null, thrown: t, shown: clip(prim(e), 200) });
        let isError = false;
        try { isError = apply(isPrototypeOf, ErrorProto, [e]); } catch (x) { isError = false; }
        if (isError) {
          return stringify({
            __proto__: null,
            name: clip(textField(e, "name", "Error"), 100),
            message: clip(textField(e, "message", ""), 2000),
            stack: clip(textField(e, "stack", ""), 4000),
          });
        }
        let shown;
        try { shown = show(e, 0); } catch (x) { shown = "(an object that could not be inspected, perhaps a Proxy)"; }
        let kind = "object";
        try { if (isArray(e)) kind = "array"; } catch (x) { kind = "object"; }
        return stringify({ __proto__: null, thrown: kind, shown: clip(shown, 200) });
      } catch (x) {
        return FAILED;
      }
    },
  });
})`;
