/** the predeclared promotion rules of the harness optimizer */
export const PROMOTION_RULES = ["not-worse", "better"] as const;
export type PromotionRule = (typeof PROMOTION_RULES)[number];

export interface PromotionDecision {
  keep: boolean;
  reason: string;
}

/**
 * The predeclared rule that keeps or reverts a candidate edit after the span it ran in: the
 * candidate's settled span score against the incumbent's reference score (the score of the last
 * span the incumbent harness ran). `not-worse` keeps it when it scores at least as well, `better`
 * only when strictly better (in the metric's direction). A candidate whose span is not scorable
 * (null) is reverted: there is no evidence for it; an incumbent without a score loses to any
 * scored candidate.
 */
export function promote(
  rule: PromotionRule,
  direction: "higher" | "lower",
  candidate: number | null,
  incumbent: number | null,
): PromotionDecision {
  if (candidate === null) return { keep: false, reason: "the candidate's span is not scorable" };
  if (incumbent === null) return { keep: true, reason: "the incumbent has no score to beat" };
  const gain = direction === "higher" ? candidate - incumbent : incumbent - candidate;
  const keep = rule === "not-worse" ? gain >= 0 : gain > 0;
  const rel = gain > 0 ? "better than" : gain === 0 ? "equal to" : "worse than";
  return { keep, reason: `${candidate} is ${rel} the incumbent's ${incumbent} (rule ${rule})` };
}
