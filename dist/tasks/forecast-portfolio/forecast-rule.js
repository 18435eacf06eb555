import { z } from "zod";
const ForecastArg = z.record(z.string().min(1).max(200), z.number()).describe('outcome label \u2192 probability in [0, 1], e.g. {"Yes": 0.7, "No": 0.3}; \u03A3p \u2264 1 (unassigned mass is allowed)');
const norm = (s) => s.trim().toLowerCase();
function canonicalForecast(raw, outcomes, tolerance) {
  const entries = Object.entries(raw);
  const valid = outcomes.map((o) => JSON.stringify(o)).join(", ");
  if (entries.length === 0) return { ok: false, error: `the forecast names no outcome; outcomes are ${valid}` };
  const byLabel = /* @__PURE__ */ new Map();
  for (const [label, p] of entries) {
    const o = outcomes.includes(label) ? label : outcomes.find((x) => norm(x) === norm(label));
    if (o === void 0) return { ok: false, error: `unknown outcome ${JSON.stringify(label)}; outcomes are ${valid}` };
    if (byLabel.has(o)) return { ok: false, error: `outcome ${JSON.stringify(o)} is named twice` };
    if (!Number.isFinite(p) || p < 0 || p > 1)
      return { ok: false, error: `probability of ${JSON.stringify(o)} is ${p}: each probability must be in [0, 1]` };
    byLabel.set(o, p);
  }
  let sum = 0;
  for (const p of byLabel.values()) sum += p;
  if (sum > 1 + tolerance)
    return { ok: false, error: `the probabilities sum to ${sum} > 1; they must sum to at most 1 (less is allowed)` };
  const forecast = {};
  for (const o of outcomes) if (byLabel.has(o)) forecast[o] = byLabel.get(o);
  return { ok: true, forecast, sum };
}
export {
  ForecastArg,
  canonicalForecast
};
//# sourceMappingURL=forecast-rule.js.map
