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

export type MatchKind = "exact" | "normalized" | "judge";

/**
 * Does a named outcome mean the true answer? Exact string equality, then equality after
 * `normalizeAnswer`, then (when a judge cache is given) a positive cached verdict of the judge for
 * (question, truth, outcome). Null: no match (an unjudged pair is no match).
 */
export function matchAnswer(
  questionId: string,
  outcome: string,
  truth: string,
  judge: JudgeCache | null = null,
): MatchKind | null {
  if (outcome === truth) return "exact";
  const n = normalizeAnswer(outcome);
  if (n !== "" && n === normalizeAnswer(truth)) return "normalized";
  if (judge?.verdict(questionId, truth, outcome) === true) return "judge";
  return null;
}
