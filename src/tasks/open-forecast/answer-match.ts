import type { JudgeCache } from "./judge-cache.js";

/**
 * Answer normalization: Unicode NFKC, lowercase, punctuation and symbols dropped (letters, marks
 * and digits kept), whitespace runs collapsed to one space, trimmed. "The U.S.A." → "the usa",
 * " yes! " → "yes".
 */
export function normalizeAnswer(s: string): string {
  return s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s]+/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * FutureSim's answer normalization: lowercase and every whitespace character removed; punctuation
 * and symbols are kept. "The U.S.A." → "theu.s.a.", "New  York" → "newyork".
 */
export function normalizeAnswerFutureSim(s: string): string {
  return s.toLowerCase().replace(/\s+/g, "");
}

/** Which normalization answer matching uses (`task_params.answer_match`; absent: relive's). */
export type AnswerNormalization = "relive" | "futuresim";

/** The normalization function of a matching mode. */
export function normalizerOf(mode: AnswerNormalization): (s: string) => string {
  switch (mode) {
    case "relive":
      return normalizeAnswer;
    case "futuresim":
      return normalizeAnswerFutureSim;
    default: {
      const never: never = mode;
      throw new Error(`unknown answer normalization ${String(never)}`);
    }
  }
}

/** What the agent is told a normalized match ignores, per mode. */
export const NORMALIZATION_IGNORES: Record<AnswerNormalization, string> = {
  relive: "case, spaces and punctuation",
  futuresim: "case and spaces",
};

export type MatchKind = "exact" | "normalized" | "judge";

/**
 * Does a named outcome mean the true answer? Exact string equality, then equality after the mode's
 * normalization (`normalizeAnswer` by default, `normalizeAnswerFutureSim` under "futuresim"), then
 * (when a judge cache is given) a positive cached verdict of the judge for (question, truth,
 * outcome). Null: no match (an unjudged pair is no match).
 */
export function matchAnswer(
  questionId: string,
  outcome: string,
  truth: string,
  judge: JudgeCache | null = null,
  mode: AnswerNormalization = "relive",
): MatchKind | null {
  if (outcome === truth) return "exact";
  const norm = normalizerOf(mode);
  const n = norm(outcome);
  if (n !== "" && n === norm(truth)) return "normalized";
  if (judge?.verdict(questionId, truth, outcome) === true) return "judge";
  return null;
}
