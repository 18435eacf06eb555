const ENVKIT_PRELUDE_FILE = "<envkit>";
const ENVKIT_PRELUDE = String.raw`(function setup(raw, toolNames, seed) {
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
    if (new.target === undefined) return iso(raw.now());
    let t;
    if (a.length === 0) t = raw.now();
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
  SimDate.now = function now() { return raw.now(); };
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
      return unwrap(raw.call(name, args === undefined ? undefined : toJson("envkit.tools." + name + " arguments", args)));
    };
    defineProperty(tools[name], "name", { value: name });
  }
  const workspace = freeze({
    read(path) { return unwrap(raw.wsRead(path)); },
    write(path, content) { unwrap(raw.wsWrite(path, content)); },
    list(path) { return unwrap(raw.wsList(path === undefined ? "." : path)); },
  });
  const envkit = freeze({
    now() { return raw.now(); },
    deadline() { return raw.deadline(); },
    wait(until) { return unwrap(raw.wait(until)); },
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
    fromJson(s) { return parse(s); },
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
export {
  ENVKIT_PRELUDE,
  ENVKIT_PRELUDE_FILE
};
//# sourceMappingURL=envkit-prelude.js.map
