import type { PlacedRun } from "./experiments.js";
import type { LedgerScan } from "./ledger-scan.js";

/** One run's numbers the aggregates are built from. */
export interface RunFacts {
  placed: PlacedRun;
  /** scorable primary, or null */
  primary: number | null;
  spent: number;
  exhausted: boolean;
  /** share of the window survived (exhausted runs only) */
  survived: number | null;
  survivedSource: "performance" | "ledger" | "unknown" | null;
  exhaustedAt: number | null;
}

/** A performance metric named `window_survived` or ending in `_window_survived`. */
function performanceSurvived(perf: Record<string, unknown>): number | null {
  for (const [k, v] of Object.entries(perf)) {
    if (k !== "window_survived" && !k.endsWith("_window_survived")) continue;
    const value = typeof v === "number" ? v : v && typeof v === "object" ? (v as { value?: unknown }).value : null;
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return null;
}

/** Whether a run's exhaustion needs its ledger to tell how much of the window it survived. */
export function needsLedgerForSurvival(p: PlacedRun): boolean {
  const { flags, performance } = p.run.results;
  if (!flags.budget_exhausted && !flags.llm_budget_exhausted) return false;
  return !(flags.llm_budget_exhausted && performanceSurvived(performance) !== null);
}

/**
 * A run's facts. Window survived, for a run that exhausted its budget: the scorer's
 * `window_survived` metric when the LLM budget ran out (that metric counts the window before the
 * first llm_rejected event); otherwise, from the ledger, the share of anytime days that ended
 * before the money ran out (first llm_rejected, first unpaid call, or first daily brief with
 * nothing left).
 */
export function runFacts(p: PlacedRun, scan: LedgerScan | null | undefined): RunFacts {
  const r = p.run.results;
  const exhausted = r.flags.budget_exhausted || r.flags.llm_budget_exhausted;
  let survived: number | null = null;
  let survivedSource: RunFacts["survivedSource"] = null;
  const exhaustedAt = scan?.exhaustedAt ?? null;
  if (exhausted) {
    const fromPerf = performanceSurvived(r.performance);
    if (r.flags.llm_budget_exhausted && fromPerf !== null) {
      survived = fromPerf;
      survivedSource = "performance";
    } else if (exhaustedAt !== null && r.timing.anytime.length > 0) {
      const before = r.timing.anytime.filter((a) => Date.parse(a.t) <= exhaustedAt).length;
      survived = before / r.timing.anytime.length;
      survivedSource = "ledger";
    } else survivedSource = "unknown";
  }
  const v = r.performance.primary.value;
  return {
    placed: p,
    primary: v !== null && Number.isFinite(v) ? v : null,
    spent: r.resources.spent_usd,
    exhausted,
    survived,
    survivedSource,
    exhaustedAt,
  };
}
