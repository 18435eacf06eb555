import { branchSeed, keepSchedule, rankBranches } from "../learning/best-of-n.js";
import type { EventOf } from "../ledger/events.js";
import { bestOfNOf } from "./best-of-n-config.js";
import type { ResolvedRun } from "./resolve-run.js";
import type { Results } from "./results.js";

type BestOfNResults = NonNullable<Results["best_of_n"]>;

/**
 * results.best_of_n, rebuilt from the ledger alone (a grader needs nothing else): the `prune` lines
 * give each branch's settled score and spend at each prune, the survivor is the branch the last
 * prune kept, its spend is what the ledger's own priced lines booked. null for other runs.
 */
export function bestOfNResults(
  r: Pick<ResolvedRun, "config">,
  /** the ledger's prune lines, in order */
  prunes: readonly EventOf<"prune">[],
  /** what the ledger's own priced lines (tool and LLM calls) booked: the survivor's spend */
  survivorSpent: number,
  direction: "higher" | "lower",
  spentUsd: number,
): BestOfNResults | null {
  const b = bestOfNOf(r.config);
  if (b === null) return null;
  const last = prunes.at(-1);
  const kept = last?.branches.filter((x) => x.kept) ?? [];
  if (last === undefined || kept.length !== 1)
    throw new Error("internal: a finished Best-of-N ledger must end its prunes with exactly one kept branch");
  const survivor = kept[0]!.branch;
  const stoppedAt = new Map<number, { day: number; spent: number }>();
  for (const p of prunes)
    for (const x of p.branches) if (!x.kept) stoppedAt.set(x.branch, { day: p.day, spent: x.spent_usd });
  let stoppedSpent = 0;
  for (const x of stoppedAt.values()) stoppedSpent += x.spent;
  return {
    n: b.n,
    prune_days: b.prune_days,
    keep: keepSchedule(b),
    survivor,
    branches: Array.from({ length: b.n }, (_, k) => ({
      branch: k,
      sampling_seed: branchSeed(r.config.seed, k),
      stopped_after_day: stoppedAt.get(k)?.day ?? null,
      spent_usd: stoppedAt.get(k)?.spent ?? survivorSpent,
      scores: prunes.flatMap((p) =>
        p.branches.filter((x) => x.branch === k).map((x) => ({ day: p.day, score: x.score })),
      ),
    })),
    prunes: prunes.map((p) => ({
      day: p.day,
      ranking: rankBranches(p.branches, direction),
      kept: p.branches.filter((x) => x.kept).map((x) => x.branch),
    })),
    survivor_spent_usd: survivorSpent,
    stopped_spent_usd: stoppedSpent,
    cost_ratio: survivorSpent > 0 ? spentUsd / survivorSpent : null,
  };
}
