const MINUTE = 6e4;
const HOUR = 36e5;
const DAY = 864e5;
function utcDayStart(t) {
  return Math.floor(t / DAY) * DAY;
}
function isoDate(t) {
  return new Date(t).toISOString().slice(0, 10);
}
function dateToMs(d) {
  return Date.parse(`${d}T00:00:00Z`);
}
function floorTo(t, step) {
  return Math.floor(t / step) * step;
}
function ceilTo(t, step) {
  return Math.ceil(t / step) * step;
}
function pad(n, width) {
  return String(n).padStart(width, "0");
}
export {
  DAY,
  HOUR,
  MINUTE,
  ceilTo,
  dateToMs,
  floorTo,
  isoDate,
  pad,
  utcDayStart
};
//# sourceMappingURL=time.js.map
