import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kernel } from "../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { feedbackTool, oracleFeedbackOf } from "../../src/run/feedback-tool.js";
import {
  type AnyTask,
  type FeedbackCondition,
  type Outcome,
  type PolicyApi,
  type ReferencePolicy,
  releasedAtOf,
  type ScoreReport,
  type TaskRun,
  type TaskRunContext,
} from "../../src/tasks/task.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import type { ViewOptions } from "../../src/world/sqlite-as-of-view.js";
import type { TruthStore } from "../../src/world/truth-store.js";
import type { WorldStore } from "../../src/world/world-store.js";

export interface DriveResult {
  runtime: ToolRuntime;
  /** the task's run (its state and observation hooks, read after the drive) */
  run: TaskRun;
  report: ScoreReport;
  outcomes: Outcome[];
  events: LedgerEvent[];
  spent_usd: number;
  wakes: number;
}

/**
 * A minimal stand-in for the runner, for task-level tests: one plain clock; the policy wakes at
 * `sim_start` and then at its own `nextWake` instants; outcomes due by a wake are settled (and
 * ledgered) before the policy acts, as the runner does; tool calls go through the real ToolRuntime
 * (zod, prices, wallet, ledger) over the task's tools (plus `get_feedback` under oracle/self, as the
 * runner adds it), and the scorer consumes the ledger in order. `onWake` runs after the policy at
 * each wake (to probe tools at known instants).
 */
export async function driveTask(o: {
  task: AnyTask;
  world: WorldStore;
  truth: TruthStore;
  sim_start: number;
  sim_end: number;
  policy: ReferencePolicy;
  params?: unknown;
  actor?: string;
  feedback?: FeedbackCondition;
  onWake?: (api: PolicyApi, run: TaskRun) => Promise<void>;
  /** the view's options (e.g. `{search: "strict"}`: as-of BM25 statistics) */
  viewOptions?: ViewOptions;
  env_seed?: number;
}): Promise<DriveResult> {
  const params = o.task.params.parse(o.params ?? {});
  const clock = { t: o.sim_start };
  const dir = mkdtempSync(join(tmpdir(), "relive-drive-"));
  const ledger = LedgerWriter.create(join(dir, "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: o.task.budget_usd, domain_caps: {} });
  const scorer = o.task.createScorer({
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    world: o.world,
    truth: o.truth,
    params,
  });
  const events: LedgerEvent[] = [];
  ledger.subscribe((e) => {
    events.push(e);
    wallet.apply(e);
    scorer.onEvent(e);
  });
  const feedback = o.feedback ?? "none";
  const ctx: TaskRunContext<unknown> = {
    params,
    feedback,
    oracleFeedback: feedback === "oracle" ? oracleFeedbackOf(events, () => clock.t) : null,
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    view: o.world.at(() => clock.t, o.viewOptions ?? {}),
    kernel: new Kernel({ start: o.sim_start, end: o.sim_end }),
    budget_usd: o.task.budget_usd,
    env_seed: o.env_seed ?? 0,
    world: o.world,
  };
  const run = o.task.open(ctx);
  const tools = run.tools();
  if (feedback !== "none") tools.push(feedbackTool(feedback, o.task, run, ctx));
  const runtime = new ToolRuntime({
    tools,
    limiters: run.limiters(),
    ledger,
    wallet,
    now: () => clock.t,
  });
  const actor = o.actor ?? "agent";
  const api: PolicyApi = { now: () => clock.t, call: (tool, args) => runtime.call(actor, tool, args) };
  const outcomes: Outcome[] = [];
  const settle = (t: number) => {
    for (const x of scorer.settle(t)) {
      outcomes.push(x);
      ledger.append({
        type: "outcome",
        t: x.t,
        key: x.key,
        status: x.status,
        credit: x.credit,
        released_at: releasedAtOf(x),
        detail: x.detail,
      });
    }
  };
  const policy = o.policy.start(api, o.policy.oracle ? { truth: o.truth, world: o.world, params } : null);
  let wakes = 0;
  try {
    let t: number | null = o.sim_start;
    while (t !== null && t < o.sim_end) {
      clock.t = t;
      settle(t);
      wakes++;
      await policy.act();
      if (o.onWake) await o.onWake(api, run);
      const next: number | null = policy.nextWake(t);
      if (next !== null && next <= t)
        throw new Error(`policy ${o.policy.name}: nextWake(${t}) = ${next} is not after now`);
      t = next;
    }
    clock.t = o.sim_end;
    settle(o.sim_end);
    return { runtime, run, report: scorer.report(), outcomes, events, spent_usd: wallet.spent, wakes };
  } finally {
    await run.dispose();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
