import { z } from "zod";
import { normalizeAnswer } from "./answer-match.js";
const SUBMIT_FORECASTS_TOOL = "submit_forecasts";
const SubmitForecastsArgs = z.object({
  question_id: z.string().min(1).max(300).describe("a question id from list_questions"),
  outcomes: z.record(z.string(), z.number()).describe(
    'answer \u2192 probability, e.g. {"Yes": 0.7, "No": 0.3}; at most 5 answers, each p in [0, 1], sum \u2264 1 (mass left unassigned is not scored)'
  )
}).strict();
const SUM_TOLERANCE = 1e-9;
function checkOutcomes(outcomes, limits) {
  const entries = Object.entries(outcomes);
  if (entries.length === 0)
    return { ok: false, error: "outcomes is empty: name at least one answer with its probability" };
  if (entries.length > limits.maxOutcomes)
    return { ok: false, error: `${entries.length} outcomes named: at most ${limits.maxOutcomes} per forecast` };
  const out = {};
  const seen = /* @__PURE__ */ new Map();
  let sum = 0;
  for (const [raw, p] of entries) {
    const label = raw.trim();
    if (label === "") return { ok: false, error: "an outcome label is empty" };
    if (label.length > limits.maxChars)
      return { ok: false, error: `outcome label of ${label.length} characters: at most ${limits.maxChars}` };
    const norm = normalizeAnswer(label);
    const twin = seen.get(norm);
    if (twin !== void 0)
      return {
        ok: false,
        error: `outcomes ${JSON.stringify(twin)} and ${JSON.stringify(label)} name the same answer (case, spaces and punctuation are ignored)`
      };
    seen.set(norm, label);
    if (!Number.isFinite(p) || p < 0 || p > 1)
      return { ok: false, error: `probability of ${JSON.stringify(label)} is ${String(p)}: each p must be in [0, 1]` };
    sum += p;
    out[label] = p;
  }
  if (sum > 1 + SUM_TOLERANCE)
    return { ok: false, error: `probabilities sum to ${Number(sum.toFixed(12))}: the sum must be at most 1` };
  return { ok: true, outcomes: out };
}
export {
  SUBMIT_FORECASTS_TOOL,
  SUM_TOLERANCE,
  SubmitForecastsArgs,
  checkOutcomes
};
//# sourceMappingURL=forecast-args.js.map
