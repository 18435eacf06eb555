import { DateTime } from "luxon";
const EDGAR_ZONE = "America/New_York";
const STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/;
function edgarStamp(t) {
  return DateTime.fromMillis(t, { zone: EDGAR_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
}
function edgarStampToUtc(stamp) {
  const m = STAMP.exec(stamp);
  if (!m) return null;
  const dt = DateTime.fromISO(`${m[1]}${m[2] ?? ""}`, { zone: EDGAR_ZONE });
  return dt.isValid ? dt.toMillis() : null;
}
export {
  EDGAR_ZONE,
  edgarStamp,
  edgarStampToUtc
};
//# sourceMappingURL=edgar-time.js.map
