import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_MS } from "../../../src/common/time.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import type { Order, OrderRequest } from "../../../src/tasks/risk-portfolio/book-engine.js";
import { orderId } from "../../../src/tasks/risk-portfolio/book-engine.js";
import type { CloseDay } from "../../../src/tasks/risk-portfolio/daily-closes.js";
import { RiskPortfolioEnv } from "../../../src/tasks/risk-portfolio/environment.js";
import type { RiskPortfolioParams } from "../../../src/tasks/risk-portfolio/params.js";
import { RiskPortfolioScorer } from "../../../src/tasks/risk-portfolio/scorer.js";
import { riskPortfolioTools } from "../../../src/tasks/risk-portfolio/tools.js";
import type { Outcome, PolicyApi, ReferencePolicy, ScoreReport } from "../../../src/tasks/task.js";
import type { ToolDef } from "../../../src/tools/tool.js";
import type { TruthStore } from "../../../src/world/truth-store.js";
import type { CandleRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";
import { WorldStore } from "../../../src/world/world-store.js";

export const HOUR = 3_600_000;
export const D = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
export const T = (iso: string) => Date.parse(iso);

/** CloseDays from {date: {symbol: close}} (dates YYYY-MM-DD, any order) */
export function closeDays(table: Record<string, Record<string, number>>): CloseDay[] {
  return Object.entries(table)
    .map(([d, prices]) => ({ day: D(d), close_time: D(d) + DAY_MS, prices }))
    .sort((a, b) => a.day - b.day);
}

/** accepted orders from [submission instant, request] pairs, numbered in order */
export function orders(list: [string, OrderRequest][]): Order[] {
  return list.map(([t, o], i) => ({ ...o, n: i + 1, order_id: orderId(i + 1), t: T(t) }));
}

/**
 * A candle world on one venue: `close(symbol, openTime)` gives each candle's close, null leaves the
 * candle out (a gap). Candles open in [from, to) every `intervalMs`, visible at open + interval.
 */
export function buildCandleWorld(o: {
  venue?: string;
  symbols: string[];
  intervalMs: number;
  from: number;
  to: number;
  close: (symbol: string, openTime: number) => number | null;
}): { dir: string; world: WorldStore; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "risk-portfolio-"));
  const dir = join(root, "world");
  const b = WorldBuilder.create(dir, {
    name: "test-daily",
    window: { start: o.from, end: o.to },
    builder: "test",
    builder_version: "1",
  });
  for (const symbol of o.symbols) {
    const rows: CandleRow[] = [];
    let prev: number | null = null;
    for (let t = o.from; t + o.intervalMs <= o.to; t += o.intervalMs) {
      const c = o.close(symbol, t);
      if (c === null) continue;
      const open = prev ?? c;
      rows.push({
        venue: o.venue ?? "kraken",
        symbol,
        interval_ms: o.intervalMs,
        open_time: t,
        o: open,
        h: Math.max(open, c),
        l: Math.min(open, c),
        c,
        v: 1,
        visible_at: t + o.intervalMs,
      });
      prev = c;
    }
    b.insert("candle", rows);
  }
  b.finish();
  const world = WorldStore.open(dir);
  return {
    dir,
    world,
    cleanup: () => {
      world.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** a uniform in [0, 1) keyed by a string (FNV-1a + murmur3 finalizer; no Math.random) */
export function keyedUniform(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * Seeded multiplicative random walks on a grid: closes rounded to cents, each step uniform in
 * ±vol. Returns close(symbol, t) for t on the grid in [from, to).
 */
export function randomWalks(o: {
  seed: string;
  start: Record<string, number>;
  from: number;
  to: number;
  stepMs: number;
  vol: number;
}): (symbol: string, t: number) => number {
  const m = new Map<string, number>();
  for (const [s, p0] of Object.entries(o.start)) {
    let p = p0;
    for (let t = o.from; t < o.to; t += o.stepMs) {
      p = Number((p * (1 + (keyedUniform(`${o.seed}:${s}:${t}`) - 0.5) * 2 * o.vol)).toFixed(2));
      m.set(`${s}@${t}`, p);
    }
  }
  return (s, t) => m.get(`${s}@${t}`) as number;
}

export const noTruth = null as unknown as TruthStore;

/** a clock moved by hand, an environment over the world and its tools by name */
export function makeEnv(world: WorldStore, params: RiskPortfolioParams, window: { start: number; end: number }) {
  const clock = { now: window.start };
  const view = world.at(() => clock.now);
  const env = new RiskPortfolioEnv({ params, view, world, sim_start: window.start, sim_end: window.end });
  const tools = new Map<string, ToolDef>(riskPortfolioTools(env).map((t) => [t.name, t]));
  return { clock, env, tools };
}

/**
 * Drives a reference policy under the sleep trigger without the kernel (wake at sim_start, then at
 * each nextWake), validating arguments with zod like the runtime; accepted commitments reach the
 * scorer as ledger events; outcomes settle as time passes (before the wake at that time).
 */
export async function runPolicy(
  policy: ReferencePolicy,
  world: WorldStore,
  params: RiskPortfolioParams,
  window: { start: number; end: number },
): Promise<{ report: ScoreReport; outcomes: Outcome[]; calls: Record<string, number>; events: LedgerEvent[] }> {
  const { clock, tools } = makeEnv(world, params, window);
  const scorer = new RiskPortfolioScorer({
    sim_start: window.start,
    sim_end: window.end,
    world,
    truth: noTruth,
    params,
  });
  const outcomes: Outcome[] = [];
  const events: LedgerEvent[] = [];
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
      if (r.ok && tool.kind === "commit") {
        const e: LedgerEvent = {
          seq: seq++,
          t: clock.now,
          type: "commitment",
          actor: "agent",
          tool: name,
          args: parsed.data,
        };
        events.push(e);
        scorer.onEvent(e);
      }
      // what an LLM agent would see: the JSON text of the result
      return r.ok ? { ok: true, value: JSON.parse(JSON.stringify(r.value)) } : r;
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
  return { report: scorer.report(), outcomes, calls, events };
}

/** the standard test world: BTC-USD, ETH-USD, SOL-USD hourly on kraken, 2026-02-09 → 03-10, no SOL close on 03-04 */
export const TEST_SYMBOLS = ["BTC-USD", "ETH-USD", "SOL-USD"];
export const TEST_WINDOW = { start: D("2026-03-01"), end: D("2026-03-11") };
export const NON_TRADING_DAY = "2026-03-04";

export function buildTestWorld() {
  const from = D("2026-02-09");
  const to = TEST_WINDOW.end;
  const walk = randomWalks({
    seed: "rp-test",
    start: { "BTC-USD": 65_000, "ETH-USD": 3_100, "SOL-USD": 150 },
    from,
    to,
    stepMs: HOUR,
    vol: 0.006,
  });
  const gap = D(NON_TRADING_DAY) + 23 * HOUR;
  return buildCandleWorld({
    symbols: TEST_SYMBOLS,
    intervalMs: HOUR,
    from,
    to,
    close: (s, t) => (s === "SOL-USD" && t === gap ? null : walk(s, t)),
  });
}
