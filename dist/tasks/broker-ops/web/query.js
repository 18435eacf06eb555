import { parseIsoInstant } from "../../../kernel/day.js";
function instantParam(name, raw) {
  if (raw === void 0 || raw === "") return { ok: true, value: void 0 };
  if (/^-?\d{1,15}$/.test(raw)) return { ok: true, value: Number(raw) };
  try {
    return { ok: true, value: parseIsoInstant(raw) };
  } catch {
    return {
      ok: false,
      error: `${name} must be an ISO-8601 instant with a zone (e.g. 2026-03-02T09:00:00Z) or epoch ms`
    };
  }
}
function intParam(name, raw, dflt, max) {
  if (raw === void 0 || raw === "") return { ok: true, value: dflt };
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max)
    return { ok: false, error: `${name} must be an integer from 0 to ${max}` };
  return { ok: true, value: Number(raw) };
}
export {
  instantParam,
  intParam
};
//# sourceMappingURL=query.js.map
