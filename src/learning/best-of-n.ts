import { z } from "zod";
import { createRng, hash32, type Rng } from "../common/random.js";

/**
 * Best-of-N + Prune (spec/harness.md "Learning", issue 13 §4): N branches of one agent run the same
 * episode; at each prune day the best by settled score so far survive and the others stop; after the
 * last prune one branch is left and its commitments are the run's. This file is the method's pure
 * part (config, schedule, ranking, branch identity); `src/run/best-of-n-run.ts` runs it.
 */
export const BestOfNSchema = z
  .object({
    method: z.literal("best-of-n"),
    /** branches (default 3) */
    n: z.number().int().min(2, "best-of-n needs at least 2 branches").max(16).default(3),
    /** the 1-based episode days after which branches are compared (default 2 and 7), strictly increasing */
    prune_days: z.array(z.number().int().positive()).min(1).default([2, 7]),
    /**
     * branches kept after each prune day (same length as prune_days, non-increasing, below n, the last 1);
     * default: ceil(n · (m − j) / m) after the j-th of m prune days, at least 1 (n 3, two prunes: 2 then 1)
     */
    keep: z.array(z.number().int().positive()).min(1).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    for (let i = 1; i < b.prune_days.length; i++)
      if (b.prune_days[i]! <= b.prune_days[i - 1]!)
        ctx.addIssue({
          code: "custom",
          path: ["prune_days"],
          message: `must be strictly increasing (day ${b.prune_days[i]} follows day ${b.prune_days[i - 1]})`,
        });
    if (b.keep === undefined) return;
    if (b.keep.length !== b.prune_days.length)
      ctx.addIssue({
        code: "custom",
        path: ["keep"],
        message: `needs one entry per prune day (${b.prune_days.length}), got ${b.keep.length}`,
      });
    if (b.keep[0]! >= b.n)
      ctx.addIssue({
        code: "custom",
        path: ["keep"],
        message: `the first prune must stop a branch: keep < n (${b.n})`,
      });
    for (let i = 1; i < b.keep.length; i++)
      if (b.keep[i]! > b.keep[i - 1]!)
        ctx.addIssue({
          code: "custom",
          path: ["keep"],
          message: "must be non-increasing (a stopped branch never returns)",
        });
    if (b.keep.at(-1) !== 1)
      ctx.addIssue({ code: "custom", path: ["keep"], message: "the last prune keeps exactly 1 branch (the survivor)" });
  });
export type BestOfN = z.output<typeof BestOfNSchema>;

/** How many branches are left after each prune day. */
export function keepSchedule(b: Pick<BestOfN, "n" | "prune_days" | "keep">): number[] {
  if (b.keep) return [...b.keep];
  const m = b.prune_days.length;
  return b.prune_days.map((_, j) => Math.max(1, Math.ceil((b.n * (m - j - 1)) / m)));
}

/**
 * Branches ranked best first by their settled score so far: higher (or lower, per the task's primary)
 * first, a null score (nothing scorable yet) last, ties broken by the lowest branch index.
 */
export function rankBranches(
  scores: readonly { branch: number; score: number | null }[],
  direction: "higher" | "lower",
): number[] {
  const sign = direction === "higher" ? -1 : 1;
  return [...scores]
    .sort((a, b) => {
      if (a.score === null || b.score === null) {
        if (a.score !== b.score) return a.score === null ? 1 : -1;
        return a.branch - b.branch;
      }
      return sign * (a.score - b.score) || a.branch - b.branch;
    })
    .map((x) => x.branch);
}

/**
 * Branch k's model sampling seed: branch 0 is the run itself (its seed); branch k ≥ 1 draws a
 * 31-bit seed from the run seed and k (`hash32`), sent to providers that accept one.
 */
export function branchSeed(seed: number, branch: number): number {
  if (branch === 0) return seed;
  return hash32(`best-of-n:seed:${seed}:branch:${branch}`) >>> 1;
}

/** The stream a scripted policy draws branch k's parameters from (k ≥ 1; branch 0 keeps the reference parameters). */
export function branchRng(seed: number, branch: number): Rng {
  return createRng(seed).split(`best-of-n/branch:${branch}`);
}

/** A branch's run directory inside the Best-of-N run's (`branches/b<k>`). */
export const branchDirName = (branch: number) => `b${branch}`;
export const BRANCHES_DIR = "branches";
