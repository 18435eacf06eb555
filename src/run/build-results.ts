import { DAY_MS, HOUR_MS } from "../common/time.js";
import type { EventOf, LedgerEvent } from "../ledger/events.js";
import type { Wallet } from "../ledger/wallet.js";
import { EXTERNAL_IDLE_TIMEOUT } from "../mcp/external-actor.js";
import { EXTERNAL_NO_ISOLATION } from "../mcp/isolated-child.js";
import type { ScoreReport } from "../tasks/task.js";
import type { TruthStore } from "../world/truth-store.js";
import type { WorldStore } from "../world/world-store.js";
import { AnytimeStream } from "./anytime.js";
import { bestOfNResults } from "./best-of-n-results.js";
import { checkKnowledgeCutoff } from "./knowledge-cutoff.js";
import { isOptimizerEvent, optimizerResultsOf } from "./optimizer-results.js";
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

export interface ResultsInput {
  /** the results' window: the run, or a paused run's [sim_start, pause) */
  r: ResolvedRun;
  report: ScoreReport;
  wallet: Wallet;
}

type Outcome = EventOf<"outcome">;

/**
 * results.json, derived from the ledger and the scorer's report (never from agent claims), built
 * from a tally fed every ledger event in order (`observe`: the runner subscribes it to the ledger,
 * rescore feeds the file's lines) so no event is held: it keeps counters, the outcomes (which
 * results.json lists anyway), one interval per wake and the one-pass anytime scorer's daily reports.
 */
export class ResultsTally {
  /** the outcome events so far, in ledger order (the oracle feedback channel reads them too) */
  readonly outcomes: Outcome[] = [];
  private readonly anytime: AnytimeStream;
  private wakes = 0;
  private lastWake: number | null = null;
  private readonly wakeDays = new Set<number>();
  /** by week index from sim_start (unclamped: a shorter window folds the later weeks into its last) */
  private readonly weekIntervals = new Map<number, number[]>();
  private readonly weekWakes = new Map<number, number>();
  private readonly reasons: Record<string, number> = {};
  private calls = 0;
  private rejected = 0;
  private rejectedProtocol = 0;
  private llmCalls = 0;
  private llmFailed = 0;
  private readonly tokens = { input: 0, cached_input: 0, output: 0 };
  private reporting = 0;
  private providerCost = 0;
  private bookedOfReporting = 0;
  private llmRejected = false;
  private readonly notes = new Set<string>();
  private truncatedReplies = 0;
  private firstCommit: number | null = null;
  private noop = 0;
  private segments = 0;
  private segmentActs = false;
  /** Best-of-N: the prune lines, and what the ledger's priced lines booked (the survivor's spend) */
  private readonly prunes: EventOf<"prune">[] = [];
  private pricedSpend = 0;
  /** harness optimizer: its notes and the proposer's calls */
  private readonly optimizerEvents: LedgerEvent[] = [];

  constructor(
    private readonly run: ResolvedRun,
    world: WorldStore,
    truth: TruthStore,
    /** names of the task's commit tools: a wake with no call to one is a no-op wake */
    private readonly commitTools: ReadonlySet<string>,
  ) {
    this.anytime = new AnytimeStream(run, world, truth);
  }

  /** the next ledger event, in ledger order */
  observe(e: LedgerEvent): void {
    this.anytime.observe(e);
    if ((e.type === "tool_call" || e.type === "llm_call") && e.cost_usd > 0) this.pricedSpend += e.cost_usd;
    if (isOptimizerEvent(e)) this.optimizerEvents.push(e);
    const { sim_start } = this.run;
    switch (e.type) {
      case "outcome":
        this.outcomes.push(e);
        return;
      case "wake": {
        if (this.segments > 0 && !this.segmentActs) this.noop++;
        this.segments++;
        this.segmentActs = false;
        this.wakes++;
        this.wakeDays.add(Math.floor((e.t - sim_start) / DAY_MS));
        const wk = Math.floor((e.t - sim_start) / (7 * DAY_MS));
        this.weekWakes.set(wk, (this.weekWakes.get(wk) ?? 0) + 1);
        if (this.lastWake !== null) {
          const xs = this.weekIntervals.get(wk);
          const h = (e.t - this.lastWake) / HOUR_MS;
          if (xs) xs.push(h);
          else this.weekIntervals.set(wk, [h]);
        }
        this.reasons[e.reason] = (this.reasons[e.reason] ?? 0) + 1;
        this.lastWake = e.t;
        return;
      }
      case "tool_call":
        this.calls++;
        if (e.status === "rejected") {
          this.rejected++;
          if (e.error?.startsWith("invalid arguments") || e.error?.startsWith("unknown tool")) this.rejectedProtocol++;
        }
        if (this.commitTools.has(e.tool)) this.segmentActs = true;
        return;
      case "llm_call":
        this.llmCalls++;
        this.tokens.input += e.input_tokens;
        this.tokens.cached_input += e.cached_input_tokens;
        this.tokens.output += e.output_tokens;
        if (e.status === "error") this.llmFailed++;
        if (e.status === "ok" && e.provider_cost_usd !== undefined) {
          this.reporting++;
          this.providerCost += e.provider_cost_usd ?? 0;
          this.bookedOfReporting += e.cost_usd;
        }
        return;
      case "commitment":
        this.firstCommit ??= e.t;
        return;
      case "note":
        this.notes.add(e.kind);
        if (e.kind === "truncated_reply") this.truncatedReplies++;
        return;
      case "llm_rejected":
        this.llmRejected = true;
        return;
      case "prune":
        this.prunes.push(e);
        return;
      default:
        return;
    }
  }

  /** results.json of the window `r` (every event of it observed) */
  results({ r, report, wallet }: ResultsInput): Results {
    const { sim_start, sim_end, task } = r;
    const outcomes = this.outcomes;
    const anytime = this.anytime.curve(sim_end);
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
    const weeks = Math.max(1, Math.ceil((sim_end - sim_start) / (7 * DAY_MS)));
    const weekly: number[][] = Array.from({ length: weeks }, () => []);
    const weekCounts = Array.from({ length: weeks }, () => 0);
    // ascending week order, so the folded last week keeps the intervals in wake order
    for (const wk of [...this.weekWakes.keys()].sort((a, b) => a - b)) {
      const k = Math.min(weeks - 1, wk);
      weekCounts[k]! += this.weekWakes.get(wk)!;
      weekly[k]!.push(...(this.weekIntervals.get(wk) ?? []));
    }
    const weeklyMedian = weekly.map(median);
    const firstW = weeklyMedian[0] ?? null;
    const lastW = weeklyMedian[weeks - 1] ?? null;
    const noop = this.noop + (this.segments > 0 && !this.segmentActs ? 1 : 0);
    const segments = this.segments;
    const notes = this.notes;
    const reactions = outcomes
      .flatMap((o) =>
        typeof o.detail.reaction_h === "number" && Number.isFinite(o.detail.reaction_h) ? [o.detail.reaction_h] : [],
      )
      .sort((a, b) => a - b);

    // provider-reported cost beside the booked cost of the same calls (logged, never booked)
    const providerCost = this.reporting ? this.providerCost : null;
    const bookedOfReporting = this.reporting ? this.bookedOfReporting : null;
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
    const bestOfN = bestOfNResults(r, this.prunes, this.pricedSpend, report.primary.direction, wallet.spent);
    const optimizer = optimizerResultsOf(r, this.optimizerEvents);
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
      outcomes: outcomes.map((o) => ({
        t: iso(o.t),
        key: o.key,
        status: o.status,
        credit: o.credit,
        detail: o.detail,
      })),
      not_scorable: report.not_scorable,
      resources: {
        budget_usd: r.budget_usd,
        spent_usd: wallet.spent,
        llm_usd: wallet.spentIn("llm"),
        fees_usd: wallet.spent - wallet.spentIn("llm"),
        overshoot_usd: wallet.overshoot,
        spend_by_type: wallet.spendByType(),
        tokens: { ...this.tokens },
        wakes: this.wakes,
        tool_calls: this.calls,
        rejected_calls: this.rejected,
        // rejected calls with bad arguments or unknown tools, and truncated replies retried with a hint
        protocol_retries: this.rejectedProtocol + this.truncatedReplies,
        llm_calls: this.llmCalls,
        llm_failed_attempts: this.llmFailed,
        provider_cost_usd: providerCost,
        provider_cost_booked_usd: bookedOfReporting,
        provider_cost_diff: costDiff,
      },
      flags: {
        budget_exhausted: wallet.spent >= r.budget_usd,
        llm_budget_exhausted: this.llmRejected,
        failed_degenerate: notes.has("failed_degenerate"),
        finished_early: notes.has("finished_early"),
        provider_failed: notes.has("provider_failed"),
        provider_cost_mismatch: costMismatch,
        before_knowledge_cutoff: checkKnowledgeCutoff(r.agent, sim_start).before,
        ...(r.agent.kind === "external"
          ? {
              external_idle_timeout: notes.has(EXTERNAL_IDLE_TIMEOUT),
              external_no_isolation: notes.has(EXTERNAL_NO_ISOLATION),
            }
          : {}),
      },
      timing: {
        anytime,
        anytime_interval: "1 simulated day (primary recomputed on the window [sim_start, day end))",
        auc,
        best_so_far: bestSoFar,
        first_commitment_hours: this.firstCommit !== null ? (this.firstCommit - sim_start) / HOUR_MS : null,
        target: TARGET_SCORE,
        hours_to_target: reached ? (Date.parse(reached.t) - sim_start) / HOUR_MS : null,
      },
      diagnostics: {
        days_without_wake: days - [...this.wakeDays].filter((d) => d >= 0 && d < days).length,
        weekly_median_wake_interval_h: weeklyMedian,
        wake_interval_drift: firstW && lastW !== null ? lastW / firstW : null,
        noop_wake_share: segments ? noop / segments : null,
        late_deviation_weeks: weekCounts.flatMap((c, i) => (i > 0 && c < weekCounts[0]! / 2 ? [i + 1] : [])),
        missed: outcomes.filter((o) => o.status === "miss" || o.status === "missed").length,
        wake_reasons: { ...this.reasons },
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
}
