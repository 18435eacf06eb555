import { z } from "zod";
import { type AnswerNormalization, NORMALIZATION_IGNORES, normalizerOf } from "./answer-match.js";

export const SUBMIT_FORECASTS_TOOL = "submit_forecasts";

/** `submit_forecasts` arguments (shape only; `checkOutcomes` applies the task's rules). */
export const SubmitForecastsArgs = z
  .object({
    question_id: z.string().min(1).max(300).describe("a question id from list_questions"),
    outcomes: z
      .record(z.string(), z.number())
      .describe(
        'answer → probability, e.g. {"Yes": 0.7, "No": 0.3}; at most 5 answers, each p in [0, 1], sum ≤ 1 (mass left unassigned is not scored)',
      ),
  })
  .strict();
export type SubmitForecastsArgs = z.infer<typeof SubmitForecastsArgs>;

/** Tolerance of the Σp ≤ 1 check (floating point sums of decimals). */
export const SUM_TOLERANCE = 1e-9;

/**
 * Applies the forecast rules (tasks.md §9): 1 to `maxOutcomes` answers, each label non-empty after
 * trimming and at most `maxChars` characters, labels distinct after the matching mode's
 * normalization (default relive's: case, spaces, punctuation), every p finite in [0, 1], Σp ≤ 1. Returns the outcomes with trimmed labels, or the
 * reason for rejecting them (the text the agent sees).
 */
export function checkOutcomes(
  outcomes: Record<string, number>,
  limits: { maxOutcomes: number; maxChars: number; match?: AnswerNormalization | undefined },
): { ok: true; outcomes: Record<string, number> } | { ok: false; error: string } {
  const entries = Object.entries(outcomes);
  if (entries.length === 0)
    return { ok: false, error: "outcomes is empty: name at least one answer with its probability" };
  if (entries.length > limits.maxOutcomes)
    return { ok: false, error: `${entries.length} outcomes named: at most ${limits.maxOutcomes} per forecast` };
  const mode = limits.match ?? "relive";
  const normalize = normalizerOf(mode);
  const out: Record<string, number> = {};
  const seen = new Map<string, string>();
  let sum = 0;
  for (const [raw, p] of entries) {
    const label = raw.trim();
    if (label === "") return { ok: false, error: "an outcome label is empty" };
    if (label.length > limits.maxChars)
      return { ok: false, error: `outcome label of ${label.length} characters: at most ${limits.maxChars}` };
    const norm = normalize(label);
    const twin = seen.get(norm);
    if (twin !== undefined)
      return {
        ok: false,
        error: `outcomes ${JSON.stringify(twin)} and ${JSON.stringify(label)} name the same answer (${NORMALIZATION_IGNORES[mode]} are ignored)`,
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
