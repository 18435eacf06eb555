const MINUTE = 6e4;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
function isoTime(t) {
  if (t === null || t === void 0 || !Number.isFinite(t)) return "\u2014";
  return new Date(t).toISOString().replace(".000Z", "Z");
}
function episodeTime(t, origin) {
  if (t === null || t === void 0 || origin === null || origin === void 0) return "";
  const rel = t - origin;
  const d = Math.floor(rel / DAY);
  const rest = rel - d * DAY;
  const hh = String(Math.floor(rest / HOUR)).padStart(2, "0");
  const mm = String(Math.floor(rest % HOUR / MINUTE)).padStart(2, "0");
  return `d${d + 1} ${hh}:${mm}`;
}
function usd(v, digits = 4) {
  if (v === null || v === void 0 || !Number.isFinite(v)) return "\u2014";
  return `$${v.toFixed(digits)}`;
}
function count(v) {
  if (v === null || v === void 0 || !Number.isFinite(v)) return "\u2014";
  return v.toLocaleString("en-US");
}
function metric(v) {
  if (v === null || v === void 0) return "\u2014";
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
}
function shortJson(v, max = 160) {
  const s = v === void 0 ? "" : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}\u2026` : s;
}
function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== void 0 && v !== null && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s === "" ? "" : `?${s}`;
}
export {
  count,
  episodeTime,
  isoTime,
  metric,
  qs,
  shortJson,
  usd
};
//# sourceMappingURL=format.js.map
