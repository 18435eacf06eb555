import { HOUR_MS } from "../../../src/common/time.js";
import type { Kernel } from "../../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { dailyDigestTask } from "../../../src/tasks/daily-digest/index.js";
import { DailyDigestParams } from "../../../src/tasks/daily-digest/params.js";
import type { Outcome, PolicyApi, ReferencePolicy, ScoreReport, TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolResult } from "../../../src/tools/tool.js";
import { NotVisibleError } from "../../../src/world/as-of-view.js";
import type { TruthStore } from "../../../src/world/truth-store.js";
import type { WorldStore } from "../../../src/world/world-store.js";

export interface DriveResult {
  report: ScoreReport;
  outcomes: Outcome[];
  calls: { t: number; tool: string; ok: boolean; error?: string }[];
  spent_usd: number;
}

/**
 * A minimal stand-in for the kernel + tool runtime, for task-level tests only: one plain clock
 * variable; wakes on every whole hour and at the policy's own `nextWake` instants (extra wakes
 * must be harmless to a policy); outcomes due at a wake are settled before the policy acts; tool
 * calls are zod-validated, rate-limited and priced as the runtime does; accepted commit calls and
 * rejected digest calls are fed to the scorer as ledger events.
 */
export async function drive(o: {
  world: WorldStore;
  truth: TruthStore;
  sim_start: number;
  sim_end: number;
  policy: ReferencePolicy;
  params?: unknown;
}): Promise<DriveResult> {
  const params = DailyDigestParams.parse(o.params ?? {});
  const clock = { t: o.sim_start };
  const ctx: TaskRunContext<DailyDigestParams> = {
    params,
    feedback: "none",
    oracleFeedback: null,
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    view: o.world.at(() => clock.t),
    kernel: undefined as unknown as Kernel, // the daily-digest tools never use the kernel
    budget_usd: dailyDigestTask.budget_usd,
    env_seed: 0,
    world: o.world,
  };
  const run = dailyDigestTask.open(ctx);
  const tools = new Map(run.tools().map((t) => [t.name, t]));
  const limiters = run.limiters();
  const scorer = dailyDigestTask.createScorer({
    sim_start: o.sim_start,
    sim_end: o.sim_end,
    world: o.world,
    truth: o.truth,
    params,
  });
  const outcomes: Outcome[] = [];
  const calls: DriveResult["calls"] = [];
  let seq = 0;
  let spent = 0;
  const feed = (e: LedgerEvent) => scorer.onEvent(e);

  const api: PolicyApi = {
    now: () => clock.t,
    async call(name, raw): Promise<ToolResult> {
      const t = clock.t;
      const tool = tools.get(name);
      let result: ToolResult;
      let cost = 0;
      let args: unknown = raw;
      if (!tool) result = { ok: false, error: `unknown tool ${name}` };
      else {
        const parsed = tool.args.safeParse(raw ?? {});
        if (!parsed.success) result = { ok: false, error: `invalid arguments for ${name}` };
        else {
          args = parsed.data;
          const got = tool.limiter ? limiters[tool.limiter]!.tryAcquire(t, 1) : { ok: true as const };
          if (!got.ok) result = { ok: false, error: "rate limited" };
          else {
            try {
              result = await tool.invoke(parsed.data, { now: () => clock.t, actor: "policy" });
            } catch (e) {
              if (!(e instanceof NotVisibleError)) throw e;
              result = { ok: false, error: e.message };
            }
            if (result.ok) cost = tool.priceOf(parsed.data) ?? 0;
          }
        }
      }
      spent += cost;
      calls.push({ t, tool: name, ok: result.ok, ...(result.ok ? {} : { error: result.error }) });
      feed({
        seq: seq++,
        type: "tool_call",
        t,
        actor: "policy",
        tool: name,
        args: raw ?? null,
        status: result.ok ? "ok" : "rejected",
        cost_usd: cost,
        domain: tool?.domain ?? "tools",
      });
      if (result.ok && tool?.kind === "commit")
        feed({ seq: seq++, type: "commitment", t, actor: "policy", tool: name, args });
      return result;
    },
  };

  const policy = o.policy.start(api, o.policy.oracle ? { truth: o.truth, world: o.world, params } : null);
  const act = () => policy.act();

  let nextPolicyWake: number | null = o.sim_start;
  let t = o.sim_start;
  while (t < o.sim_end) {
    clock.t = t;
    outcomes.push(...scorer.settle(t));
    await act();
    if (nextPolicyWake !== null && nextPolicyWake <= t) nextPolicyWake = policy.nextWake(t);
    const nextHour = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
    t = nextPolicyWake === null ? nextHour : Math.min(nextHour, nextPolicyWake);
  }
  clock.t = o.sim_end;
  outcomes.push(...scorer.settle(o.sim_end));
  return { report: scorer.report(), outcomes, calls, spent_usd: spent };
}
