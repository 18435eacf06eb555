import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPriceCheckEnv, type PriceCheckEnv } from "../../../src/tasks/price-check/environment.js";
import { HourBook } from "../../../src/tasks/price-check/hour-book.js";
import type { PriceCheckParams } from "../../../src/tasks/price-check/params.js";
import { PriceCheckScorer } from "../../../src/tasks/price-check/scorer.js";
import { priceCheckTools } from "../../../src/tasks/price-check/tools.js";
import type { Outcome, PolicyApi, ReferencePolicy, ScoreReport } from "../../../src/tasks/task.js";
import type { TruthStore } from "../../../src/world/truth-store.js";
import type { CandleRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";
import { WorldStore } from "../../../src/world/world-store.js";

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const T0 = Date.UTC(2026, 2, 1);

/** A tiny candle world: close(venue, symbol, open_time) gives each candle's close; o = previous close. */
export function buildCandleWorld(o: {
  venues: string[];
  symbols: string[];
  intervalMs: number;
  from: number;
  to: number;
  close: (venue: string, symbol: string, openTime: number) => number;
  /** a series' first candle opens here (default: `from`): a series that becomes visible later */
  seriesFrom?: (venue: string, symbol: string) => number;
}): { world: WorldStore; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "price-check-"));
  const dir = join(root, "world");
  const b = WorldBuilder.create(dir, {
    name: "test-candles",
    window: { start: o.from, end: o.to },
    builder: "test",
    builder_version: "1",
  });
  for (const venue of o.venues)
    for (const symbol of o.symbols) {
      const rows: CandleRow[] = [];
      let prev: number | null = null;
      for (let t = o.seriesFrom?.(venue, symbol) ?? o.from; t + o.intervalMs <= o.to; t += o.intervalMs) {
        const c = o.close(venue, symbol, t);
        const open = prev ?? c;
        rows.push({
          venue,
          symbol,
          interval_ms: o.intervalMs,
          open_time: t,
          o: open,
          h: Math.max(open, c),
          l: Math.min(open, c),
          c,
          v: 1.5,
          visible_at: t + o.intervalMs,
        });
        prev = c;
      }
      b.insert("candle", rows);
    }
  b.finish();
  const world = WorldStore.open(dir);
  return {
    world,
    cleanup: () => {
      world.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export const noTruth = null as unknown as TruthStore;

/** A clock the test moves by hand, an env over the world and the tools by name. */
export function makeEnv(world: WorldStore, params: PriceCheckParams, window: { start: number; end: number }, seed = 7) {
  const clock = { now: window.start };
  const view = world.at(() => clock.now);
  const env: PriceCheckEnv = createPriceCheckEnv({
    params,
    view,
    world,
    env_seed: seed,
    sim_start: window.start,
    sim_end: window.end,
  });
  const book = new HourBook();
  const tools = new Map(priceCheckTools(env, book).map((t) => [t.name, t]));
  return { clock, env, tools, book };
}

/**
 * Drives a reference policy under the sleep trigger without the kernel: wake at sim_start, then at
 * each nextWake; tool calls are validated with zod like the runtime does; accepted commitments are
 * fed to the scorer as ledger events; outcomes settle as time passes.
 */
export async function runPolicy(
  policy: ReferencePolicy,
  world: WorldStore,
  params: PriceCheckParams,
  window: { start: number; end: number },
  seed = 7,
): Promise<{ report: ScoreReport; outcomes: Outcome[]; calls: Record<string, number> }> {
  const { clock, tools } = makeEnv(world, params, window, seed);
  const scorer = new PriceCheckScorer({ sim_start: window.start, sim_end: window.end, world, truth: noTruth, params });
  const outcomes: Outcome[] = [];
  const calls: Record<string, number> = {};
  let seq = 0;
  const api: PolicyApi = {
    now: () => clock.now,
    call: async (name, args) => {
      const tool = tools.get(name);
      if (!tool) return { ok: false, error: `unknown tool ${name}` };
      const parsed = tool.args.safeParse(args ?? {});
      if (!parsed.success) return { ok: false, error: parsed.error.message };
      const r = await tool.invoke(parsed.data, { now: () => clock.now, actor: "agent" });
      calls[name] = (calls[name] ?? 0) + 1;
      if (r.ok && tool.kind === "commit")
        scorer.onEvent({ seq: seq++, t: clock.now, type: "commitment", actor: "agent", tool: name, args: parsed.data });
      return r;
    },
  };
  const run = policy.start(api, policy.oracle ? { truth: noTruth, world, params } : null);
  const act = () => run.act();
  await act();
  for (;;) {
    const next = run.nextWake(clock.now);
    if (next === null || next >= window.end) break;
    outcomes.push(...scorer.settle(next));
    clock.now = next;
    await act();
  }
  outcomes.push(...scorer.settle(window.end));
  return { report: scorer.report(), outcomes, calls };
}
