import { join } from "node:path";
import { Kernel } from "../kernel/kernel.js";
import type { EventOf } from "../ledger/events.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { Redactor } from "../ledger/redactor.js";
import { Wallet } from "../ledger/wallet.js";
import type { Scorer, TaskRunContext } from "../tasks/task.js";
import type { IntentSlot } from "../triggers/trigger.js";
import type { TruthStore } from "../world/truth-store.js";
import { leaseWorld } from "../world/world-lease.js";
import type { WorldStore } from "../world/world-store.js";
import { oracleFeedbackOf } from "./feedback-tool.js";
import { HarnessSurface } from "./harness-surface.js";
import type { ResolvedRun } from "./resolve-run.js";

/** What one (re-)run of an episode is made of before any actor exists. */
export interface RunSetup {
  world: WorldStore;
  truth: TruthStore;
  /** gives the stores back (`leaseWorld`: closed, or kept open for the process's next run) */
  releaseWorld: () => void;
  kernel: Kernel;
  /** in verify mode against `recorded` (empty for a fresh run) */
  ledger: LedgerWriter;
  redactor: Redactor;
  wallet: Wallet;
  scorer: Scorer;
  /**
   * the run's outcome events so far, in ledger order (the oracle feedback channel reads them); no
   * other event is held: results are tallied as the ledger is written (`ResultsTally`)
   */
  outcomes: EventOf<"outcome">[];
  ctx: TaskRunContext<unknown>;
  /** each LLM actor's intent slot, by actor id (task tools that move the clock write into it) */
  slots: Map<string, IntentSlot>;
  now: () => number;
  /** the editable harness (addendum, tuned params, watcher programs): restart switches and the optimizer change it */
  harness: HarnessSurface;
}

/**
 * Opens the stores, the kernel, the ledger (verifying `recorded`), the wallet, the scorer and the
 * task's run context. `teardownRun` releases what this opened. The stores are leased
 * (`leaseWorld`: a grid job process keeps them open across its runs) and released again when a
 * later step of the setup throws.
 */
export function openRunSetup(r: ResolvedRun, recorded: readonly string[]): RunSetup {
  const lease = leaseWorld(r.worldDir);
  const { world, truth } = lease;
  let ledger: LedgerWriter | null = null;
  try {
    const { task, sim_start, sim_end } = r;
    const kernel = new Kernel({ start: sim_start, end: sim_end });
    ledger = LedgerWriter.verifying(join(r.runDir, "ledger.jsonl"), recorded);
    const redactor = new Redactor();
    ledger.redactWith(redactor);
    const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
    const scorer = task.createScorer({ sim_start, sim_end, world, truth, params: r.params });
    const outcomes: EventOf<"outcome">[] = [];
    ledger.subscribe((e) => {
      if (e.type === "outcome") outcomes.push(e);
      wallet.apply(e);
      scorer.onEvent(e);
    });
    const now = () => kernel.now();
    const harness = new HarnessSurface(r);
    const ctx: TaskRunContext<unknown> = {
      params: r.params,
      secrets: redactor,
      feedback: r.config.feedback,
      oracleFeedback: r.config.feedback === "oracle" ? oracleFeedbackOf(outcomes, now) : null,
      sim_start,
      sim_end,
      view: world.at(now, { search: r.config.search ?? "global" }),
      kernel,
      budget_usd: r.budget_usd,
      env_seed: r.env_seed,
      world,
      memoryTools: r.learning.memoryTools,
      tuned: () => harness.params(),
    };
    // task tools that move the clock (open-forecast's next_day) leave a sleep intent in the calling actor's slot
    const slots = new Map<string, IntentSlot>();
    ctx.agentClock = {
      trigger: r.config.agent.trigger,
      sleepUntil:
        r.agent.kind !== "scripted" && r.agent.trigger === "sleep"
          ? (until, tool, actor) => slots.get(actor)?.set({ kind: "sleep", until, tool })
          : null,
    };
    return {
      world,
      truth,
      releaseWorld: lease.release,
      kernel,
      ledger,
      redactor,
      wallet,
      scorer,
      outcomes,
      ctx,
      slots,
      now,
      harness,
    };
  } catch (err) {
    try {
      ledger?.close();
    } finally {
      lease.release();
    }
    throw err;
  }
}
