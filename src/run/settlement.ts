import { DAY_MS, nextUtcMidnight } from "../common/time.js";
import { dailyBrief } from "../ledger/daily-brief.js";
import type { Outcome } from "../tasks/task.js";
import type { ResolvedRun } from "./resolve-run.js";
import type { RunSetup } from "./run-setup.js";

export interface DayProgress {
  day: number;
  days: number;
  t: number;
  spent_usd: number;
  commitments: number;
  outcomes: number;
  replaying: boolean;
}

export interface Settlement {
  /** whole days of the episode */
  readonly days: number;
  /** appends the outcomes due by `to` and the daily brief of every midnight crossed, in simulated order */
  settleThrough(to: number): void;
  progress(t: number, day: number): void;
  /** the newest daily brief's text (shown at an agent's first wake of a day) */
  latestBrief(): string | null;
}

/**
 * Settlement and day boundaries: whenever the clock moves to `to`, outcomes with settlement time ≤
 * `to` are appended (with their own times) before the daily brief of each midnight crossed, all
 * before any actor wakes at `to`. The runner calls `settleThrough` from its kernel advance hook.
 */
export function openSettlement(
  r: ResolvedRun,
  s: RunSetup,
  onProgress: ((p: DayProgress) => void) | undefined,
): Settlement {
  const { sim_start, sim_end } = r;
  const { ledger, wallet, scorer } = s;
  const days = Math.round((sim_end - sim_start) / DAY_MS);
  let commitments = 0;
  let outcomes = 0;
  let latestBrief: string | null = null;
  ledger.subscribe((e) => {
    if (e.type === "daily_brief") latestBrief = e.text;
    if (e.type === "commitment") commitments++;
    if (e.type === "outcome") outcomes++;
  });
  const progress = (t: number, day: number) =>
    onProgress?.({ day, days, t, spent_usd: wallet.spent, commitments, outcomes, replaying: ledger.replaying });

  let nextMidnight = nextUtcMidnight(sim_start);
  const appendOutcome = (x: Outcome) =>
    ledger.append({
      type: "outcome",
      t: x.t,
      key: x.key,
      status: x.status,
      credit: x.credit,
      released_at: Math.max(x.t, x.released_at ?? x.t),
      detail: x.detail,
    });
  const settleThrough = (to: number) => {
    const due = scorer.settle(to);
    let i = 0;
    let crossedMidnight = false;
    while (nextMidnight <= to && nextMidnight < sim_end) {
      crossedMidnight = true;
      while (i < due.length && due[i]!.t <= nextMidnight) appendOutcome(due[i++]!);
      const day = Math.round((nextMidnight - sim_start) / DAY_MS);
      progress(nextMidnight, day);
      ledger.append(dailyBrief(nextMidnight, day + 1, days, wallet));
      nextMidnight += DAY_MS;
    }
    while (i < due.length) appendOutcome(due[i++]!);
    // DESIGN: fsync at settlement points and day boundaries (started beside the run: ledger/background-fsync.ts)
    if (due.length || crossedMidnight) ledger.sync();
  };
  return { days, settleThrough, progress, latestBrief: () => latestBrief };
}

/** The run's first lines: `run_start` and the first day's brief. */
export function appendRunStart(r: ResolvedRun, s: RunSetup, days: number): void {
  const { ledger, world, wallet } = s;
  ledger.append({
    type: "run_start",
    t: r.sim_start,
    ...(ledger.version >= 2 ? { ledger_version: ledger.version } : {}),
    run_id: r.runId,
    task: r.task.id,
    task_version: r.task.version,
    episode: r.episode.name,
    sim_start: r.sim_start,
    sim_end: r.sim_end,
    seed: r.config.seed,
    agent: r.agentName,
    trigger: r.config.agent.trigger,
    world_hash: world.manifest.hash,
    budget_usd: r.budget_usd,
  });
  ledger.append(dailyBrief(r.sim_start, 1, days, wallet));
}

/** Appends the run's last lines (the outcomes still due and `run_end`) after the kernel finished. */
export function appendRunEnd(r: ResolvedRun, s: RunSetup, st: Settlement): void {
  st.settleThrough(r.sim_end);
  st.progress(r.sim_end, st.days);
  s.ledger.append({ type: "run_end", t: r.sim_end, reason: "sim_end" });
}
