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
  const errors = { TypeError, RangeError, Error };

  // ---- raw host results ----
  const halt = () => { for (;;) {} };
  const unwrap = (r) => {
    if (typeof r !== "string") return r;
    const o = parse(r);
    if (o.halt === 1) halt();
    if (typeof o.e === "string") {
      const C = errors[o.t] || Error;
      throw new C(o.e);
    }
    return o.v;
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
  const str = (v) => { try { return StringCtor(v); } catch (e) { return objectToString.call(v); } };
  return freeze({
    fromJson(s) { return parse(s); },
    describe(e) {
      try {
        if (typeof e === "object" && e !== null && apply(isPrototypeOf, ErrorProto, [e])) {
          return stringify({ name: str(e.name), message: str(e.message), stack: typeof e.stack === "string" ? e.stack : "" });
        }
        let shown;
        try { shown = typeof e === "object" && e !== null ? stringify(e) : undefined; } catch (x) { shown = undefined; }
        if (shown === undefined) shown = typeof e === "symbol" ? "a symbol" : str(e);
        return stringify({ thrown: typeof e, shown: shown.length > 200 ? shown.slice(0, 200) + "…" : shown });
      } catch (x) {
        return '{"thrown":"unknown","shown":"(an exception that could not be described)"}';
      }
    },
  });
})`;
export {
  ENVKIT_PRELUDE,
  ENVKIT_PRELUDE_FILE
};
//# sourceMappingURL=envkit-prelude.js.map
