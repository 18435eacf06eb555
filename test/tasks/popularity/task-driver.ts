import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kernel } from "../../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { LedgerWriter } from "../../../src/ledger/ledger-writer.js";
import { Wallet } from "../../../src/ledger/wallet.js";
import { feedbackTool, oracleFeedbackOf } from "../../../src/run/feedback-tool.js";
import type {
  FeedbackCondition,
  Outcome,
  PolicyApi,
  ReferencePolicy,
  ScoreReport,
  TaskDefinition,
  TaskRunContext,
} from "../../../src/tasks/task.js";
import { ToolRuntime } from "../../../src/tools/tool-runtime.js";
import type { TruthStore } from "../../../src/world/truth-store.js";
import type { WorldStore } from "../../../src/world/world-store.js";

export interface DriveResult {
  report: ScoreReport;
  outcomes: Outcome[];
  events: LedgerEvent[];
  spent_usd: number;
  wakes: number;
}

/**
 * A kernel-less stand-in for the runner, for task-level tests: the real ToolRuntime, ledger writer
 * (temp file), wallet and scorer, and one clock variable moved to the policy's `nextWake` instants
 * (plus every `extraWakeMs` when given). Outcomes due at an instant are settled and ledgered before
 * the policy acts, as the runner does. `feedback` adds the runner's get_feedback tool.
 */
export async function drive<P>(o: {
  task: TaskDefinition<P>;
  world: WorldStore;
  truth: TruthStore;
  sim_start: number;
  sim_end: number;
  policy: ReferencePolicy;
  params?: unknown;
  feedback?: FeedbackCondition;
  /** called after each wake with the API (to probe tools at known instants) */
  onWake?: (api: PolicyApi) => Promise<void>;
}): Promise<DriveResult> {
  const params = o.task.params.parse(o.params ?? {});
  const clock = { t: o.sim_start };
  const events: LedgerEvent[] = [];
  const feedback = o.feedback ?? "none";
  const ctx: TaskRunContext<P> = {
    params,
    feedback,
    oracleFeedback: feedback === "oracle" ? oracleFeedbackOf(events, () => clock.t) : null,
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    view: o.world.at(() => clock.t),
    kernel: undefined as unknown as Kernel, // these tasks' tools never use the kernel
    budget_usd: o.task.budget_usd,
    env_seed: 0,
    world: o.world,
  };
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-drive-")), "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: o.task.budget_usd, domain_caps: {} });
  const scorer = o.task.createScorer({
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    world: o.world,
    truth: o.truth,
    params,
  });
  ledger.subscribe((e) => {
    events.push(e);
    wallet.apply(e);
    scorer.onEvent(e);
  });
  const tools = o.task.tools(ctx);
  if (feedback !== "none") tools.push(feedbackTool(feedback, o.task, ctx));
  const runtime = new ToolRuntime({
    tools,
    limiters: o.task.limiters?.(ctx) ?? {},
    ledger,
    wallet,
    now: () => clock.t,
  });
  const api: PolicyApi = { now: () => clock.t, call: (tool, args) => runtime.call("agent", tool, args) };
  const outcomes: Outcome[] = [];
  const settle = (t: number) => {
    for (const x of scorer.settle(t)) {
      outcomes.push(x);
      ledger.append({ type: "outcome", t: x.t, key: x.key, status: x.status, credit: x.credit, detail: x.detail });
    }
  };
  let wakes = 0;
  let t: number | null = o.sim_start;
  try {
    while (t !== null && t < o.sim_end) {
      clock.t = t;
      settle(t);
      wakes++;
      if (o.policy.oracle) await o.policy.oracle.act(api, { truth: o.truth, world: o.world, params });
      else await o.policy.act?.(api);
      if (o.onWake) await o.onWake(api);
      const next = o.policy.nextWake(t);
      t = next === null ? null : Math.max(next, t + 1);
    }
    clock.t = o.sim_end;
    settle(o.sim_end);
  } finally {
    ledger.close();
  }
  return { report: scorer.report(), outcomes, events, spent_usd: wallet.spent, wakes };
}
