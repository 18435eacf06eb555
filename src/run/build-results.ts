import { DAY_MS, HOUR_MS } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { Wallet } from "../ledger/wallet.js";
import { EXTERNAL_IDLE_TIMEOUT } from "../mcp/external-actor.js";
import { EXTERNAL_NO_ISOLATION } from "../mcp/isolated-child.js";
import type { ScoreReport } from "../tasks/task.js";
import type { TruthStore } from "../world/truth-store.js";
import type { WorldStore } from "../world/world-store.js";
import { anytimeCurve } from "./anytime.js";
import { bestOfNResults } from "./best-of-n-results.js";
import { checkKnowledgeCutoff } from "./knowledge-cutoff.js";
import { optimizerResultsOf } from "./optimizer-results.js";
import type { ResolvedRun } from "./resolve-run.js";
import { HARNESS_VERSION, RELIVE_REACT } from "./resolve-run.js";
import { PROVIDER_COST_TOLERANCE, type Results } from "./results.js";

/** The score a run must reach for `hours_to_target` (on the primary's own scale). */
export const TARGET_SCORE = 0.5;

const iso = (t: number) => new Date(t).toISOString();
const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface BuildInput {
  r: ResolvedRun;
  events: readonly LedgerEvent[];
  report: ScoreReport;
  wallet: Wallet;
  world: WorldStore;
  truth: TruthStore;
  /** names of the task's commit tools: a wake with no call to one is a no-op wake */
  commitTools: ReadonlySet<string>;
}

/** results.json, derived from the ledger and the scorer's report (never from agent claims). */
export function buildResults({ r, events, report, wallet, world, truth, commitTools }: BuildInput): Results {
  const { sim_start, sim_end, task } = r;
  const outcomes = events.flatMap((e) => (e.type === "outcome" ? [e] : []));
  const wakes = events.flatMap((e) => (e.type === "wake" ? [e] : []));
  const calls = events.flatMap((e) => (e.type === "tool_call" ? [e] : []));
  const llm = events.flatMap((e) => (e.type === "llm_call" ? [e] : []));
  const firstCommit = events.find((e) => e.type === "commitment");

  const anytime = anytimeCurve(r, events, world, truth);
  const auc = anytime.length ? anytime.reduce((s, p) => s + (p.primary ?? 0), 0) / anytime.length : null;
  const scored = anytime.flatMap((p) => (p.primary === null ? [] : [p.primary]));
  const bestSoFar = scored.length
    ? report.primary.direction === "higher"
      ? Math.max(...scored)
      : Math.min(...scored)
    : null;
  const reached = anytime.find((p) => p.primary !== null && p.primary >= TARGET_SCORE);

  // diagnostics
  const days = Math.round((sim_end - sim_start) / DAY_MS);
  const wakeDays = new Set(wakes.map((w) => Math.floor((w.t - sim_start) / DAY_MS)));
  const weeks = Math.max(1, Math.ceil((sim_end - sim_start) / (7 * DAY_MS)));
  const weekly: number[][] = Array.from({ length: weeks }, () => []);
  const weekCounts = Array.from({ length: weeks }, () => 0);
  wakes.forEach((w, i) => {
    const wk = Math.min(weeks - 1, Math.floor((w.t - sim_start) / (7 * DAY_MS)));
    weekCounts[wk]!++;
    if (i > 0) weekly[wk]!.push((w.t - wakes[i - 1]!.t) / HOUR_MS);
  });
  const weeklyMedian = weekly.map(median);
  const firstW = weeklyMedian[0] ?? null;
  const lastW = weeklyMedian[weeks - 1] ?? null;
  let noop = 0;
  let segments = 0;
  let segmentActs = false;
  for (const e of events) {
    if (e.type === "wake") {
      if (segments > 0 && !segmentActs) noop++;
      segments++;
      segmentActs = false;
    } else if (e.type === "tool_call" && commitTools.has(e.tool)) {
      segmentActs = true;
    }
  }
  if (segments > 0 && !segmentActs) noop++;
  const reasons: Record<string, number> = {};
  for (const w of wakes) reasons[w.reason] = (reasons[w.reason] ?? 0) + 1;
  const notes = events.flatMap((e) => (e.type === "note" ? [e.kind] : []));
  const rejected = calls.filter((c) => c.status === "rejected");
  const reactions = outcomes
    .flatMap((o) =>
      typeof o.detail.reaction_h === "number" && Number.isFinite(o.detail.reaction_h) ? [o.detail.reaction_h] : [],
    )
    .sort((a, b) => a - b);

  // provider-reported cost beside the booked cost of the same calls (logged, never booked)
  const reporting = llm.filter((c) => c.status === "ok" && c.provider_cost_usd !== undefined);
  const providerCost = reporting.length ? reporting.reduce((s, c) => s + (c.provider_cost_usd ?? 0), 0) : null;
  const bookedOfReporting = reporting.length ? reporting.reduce((s, c) => s + c.cost_usd, 0) : null;
  const costDiff =
    providerCost !== null && bookedOfReporting !== null && bookedOfReporting > 0
      ? (providerCost - bookedOfReporting) / bookedOfReporting
      : null;
  const costMismatch =
    costDiff !== null
      ? Math.abs(costDiff) > PROVIDER_COST_TOLERANCE
      : providerCost !== null && providerCost > 0 && bookedOfReporting === 0;

  const { primary, ...rest } = { primary: report.primary, ...report.metrics };
  // Best-of-N: the branches, prunes and cost ratio, from the ledger's prune lines
  const bestOfN = bestOfNResults(r, events, report.primary.direction, wallet.spent);
  const optimizer = optimizerResultsOf(r, events);
  return {
    schema_version: 1,
    run_id: r.runId,
    task: task.id,
    task_version: task.version,
    scorer_version: task.scorer_version,
    harness_version: HARNESS_VERSION,
    // who acted: relive's own ReAct harness, or an outside app (`external:<name>`, with the model its traffic went to)
    ...(r.agent.kind === "external"
      ? { harness: r.agent.harness, ...(r.agent.upstream ? { upstream_model: r.agent.upstream.name } : {}) }
      : r.agent.kind === "model"
        ? { harness: RELIVE_REACT }
        : {}),
    task_axes: task.axes,
    episode: r.episode.name,
    agent: r.agentName,
    trigger: r.config.agent.trigger,
    seed: r.config.seed,
    sim_start: iso(sim_start),
    sim_end: iso(sim_end),
    performance: { primary, ...rest },
    outcomes: outcomes.map((o) => ({ t: iso(o.t), key: o.key, status: o.status, credit: o.credit, detail: o.detail })),
    not_scorable: report.not_scorable,
    resources: {
      budget_usd: r.budget_usd,
      spent_usd: wallet.spent,
      llm_usd: wallet.spentIn("llm"),
      fees_usd: wallet.spent - wallet.spentIn("llm"),
      overshoot_usd: wallet.overshoot,
      spend_by_type: wallet.spendByType(),
      tokens: {
        input: llm.reduce((s, c) => s + c.input_tokens, 0),
        cached_input: llm.reduce((s, c) => s + c.cached_input_tokens, 0),
        output: llm.reduce((s, c) => s + c.output_tokens, 0),
      },
      wakes: wakes.length,
      tool_calls: calls.length,
      rejected_calls: rejected.length,
      // rejected calls with bad arguments or unknown tools, and truncated replies retried with a hint
      protocol_retries:
        rejected.filter((c) => c.error?.startsWith("invalid arguments") || c.error?.startsWith("unknown tool")).length +
        notes.filter((k) => k === "truncated_reply").length,
      llm_calls: llm.length,
      llm_failed_attempts: llm.filter((c) => c.status === "error").length,
      provider_cost_usd: providerCost,
      provider_cost_booked_usd: bookedOfReporting,
      provider_cost_diff: costDiff,
    },
    flags: {
      budget_exhausted: wallet.spent >= r.budget_usd,
      llm_budget_exhausted: events.some((e) => e.type === "llm_rejected"),
      failed_degenerate: notes.includes("failed_degenerate"),
      finished_early: notes.includes("finished_early"),
      provider_failed: notes.includes("provider_failed"),
      provider_cost_mismatch: costMismatch,
      before_knowledge_cutoff: checkKnowledgeCutoff(r.agent, sim_start).before,
      ...(r.agent.kind === "external"
        ? {
            external_idle_timeout: notes.includes(EXTERNAL_IDLE_TIMEOUT),
            external_no_isolation: notes.includes(EXTERNAL_NO_ISOLATION),
          }
        : {}),
    },
    timing: {
      anytime,
      anytime_interval: "1 simulated day (primary recomputed on the window [sim_start, day end))",
      auc,
      best_so_far: bestSoFar,
      first_commitment_hours: firstCommit ? (firstCommit.t - sim_start) / HOUR_MS : null,
      target: TARGET_SCORE,
      hours_to_target: reached ? (Date.parse(reached.t) - sim_start) / HOUR_MS : null,
    },
    diagnostics: {
      days_without_wake: days - [...wakeDays].filter((d) => d >= 0 && d < days).length,
      weekly_median_wake_interval_h: weeklyMedian,
      wake_interval_drift: firstW && lastW !== null ? lastW / firstW : null,
      noop_wake_share: segments ? noop / segments : null,
      late_deviation_weeks: weekCounts.flatMap((c, i) => (i > 0 && c < weekCounts[0]! / 2 ? [i + 1] : [])),
      missed: outcomes.filter((o) => o.status === "miss" || o.status === "missed").length,
      wake_reasons: reasons,
      reaction_h: {
        n: reactions.length,
        p50: median(reactions),
        p90: reactions.length
          ? reactions[Math.min(reactions.length - 1, Math.ceil(0.9 * reactions.length) - 1)]!
          : null,
        mean: reactions.length ? reactions.reduce((s, x) => s + x, 0) / reactions.length : null,
      },
    },
    ...(bestOfN !== null ? { best_of_n: bestOfN } : {}),
    ...(optimizer !== null ? { optimizer } : {}),
  };
}
