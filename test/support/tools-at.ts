import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kernel } from "../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import type { AnyTask, FeedbackCondition, TaskRunContext } from "../../src/tasks/task.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import type { WorldStore } from "../../src/world/world-store.js";

/** One run of a task (`run`) with its tools in the real ToolRuntime over a world, at a clock the test moves (forward only). */
export function toolsAt(
  task: AnyTask,
  world: WorldStore,
  o: { sim_start: number; sim_end: number; params?: unknown; feedback?: FeedbackCondition },
) {
  const clock = { t: o.sim_start };
  const ctx: TaskRunContext<unknown> = {
    params: task.params.parse(o.params ?? {}),
    feedback: o.feedback ?? "none",
    oracleFeedback: null,
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    view: world.at(() => clock.t),
    kernel: undefined as unknown as Kernel,
    budget_usd: task.budget_usd,
    env_seed: 0,
    world,
  };
  const events: LedgerEvent[] = [];
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-tools-")), "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: task.budget_usd, domain_caps: {} });
  ledger.subscribe((e) => {
    events.push(e);
    wallet.apply(e);
  });
  const run = task.open(ctx);
  const runtime = new ToolRuntime({
    tools: run.tools(),
    limiters: run.limiters(),
    ledger,
    wallet,
    now: () => clock.t,
  });
  return {
    ctx,
    run,
    events,
    wallet,
    at(t: number) {
      if (t < clock.t) throw new Error("the test clock only moves forward");
      clock.t = t;
    },
    call: (tool: string, args: unknown) => runtime.call("agent", tool, args),
    names: () => runtime.names(),
    close: () => ledger.close(),
  };
}
