import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../../src/kernel/kernel.js";
import { priceCheckTask } from "../../../src/tasks/price-check/index.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolDef } from "../../../src/tools/tool.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildCandleWorld, HOUR, MIN, T0 } from "./fixtures.js";

/**
 * Instruction, exchange docs, venue symbol lists and rejections are as-of views (DESIGN.md
 * invariant 2): world `later` has an ETH-USD series whose first candle opens at 02:00 (visible at
 * 02:05); world `never` has no ETH-USD at all. Before 02:05 the two must look identical.
 */
const ETH_FROM = T0 + 2 * HOUR;
const common = {
  venues: ["binance", "kraken"],
  intervalMs: 5 * MIN,
  from: T0 - HOUR,
  to: T0 + 4 * HOUR,
  close: (_v: string, s: string) => (s === "BTC-USD" ? 100 : 10),
};

let later: { world: WorldStore; cleanup: () => void };
let never: { world: WorldStore; cleanup: () => void };
beforeAll(() => {
  later = buildCandleWorld({
    ...common,
    symbols: ["BTC-USD", "ETH-USD"],
    seriesFrom: (_v, s) => (s === "ETH-USD" ? ETH_FROM : T0 - HOUR),
  });
  never = buildCandleWorld({ ...common, symbols: ["BTC-USD"] });
});
afterAll(() => {
  later.cleanup();
  never.cleanup();
});

function open(world: WorldStore) {
  const clock = { t: T0 };
  const ctx: TaskRunContext<unknown> = {
    params: { incidents: false },
    feedback: "none",
    oracleFeedback: null,
    sim_start: T0,
    sim_end: T0 + 3 * HOUR,
    view: world.at(() => clock.t),
    kernel: undefined as unknown as Kernel,
    budget_usd: 20,
    env_seed: 7,
    world,
  };
  const run = priceCheckTask.open(ctx);
  const tools = run.tools();
  const byName = new Map(tools.map((t) => [t.name, t] as [string, ToolDef]));
  const call = (name: string, args: unknown) => byName.get(name)!.invoke(args, { now: () => clock.t, actor: "agent" });
  return { clock, run, tools, call };
}

const probes: [string, unknown][] = [
  ["get_exchange_docs", {}],
  ["report", { symbol: "ETH-USD", price: 10 }],
  ["abstain", { symbol: "ETH-USD" }],
  ["http_fetch", { venue: "binance", path: "/api/v3/klines", params: { symbol: "ETHUSD", interval: "5m", limit: 3 } }],
  ["http_fetch", { venue: "kraken", path: "/0/public/OHLC", params: { pair: "ETHUSD", interval: 5 } }],
];

describe("price-check reads the candle series visible at its time", () => {
  it("before the series is visible: instruction, tool docs and every probe are identical to a world without it", async () => {
    const a = open(later.world);
    const b = open(never.world);
    expect(a.run.instruction()).toEqual(b.run.instruction());
    expect(a.run.instruction()).not.toContain("ETH");
    expect(JSON.stringify(a.tools.map((t) => [t.name, t.description]))).toEqual(
      JSON.stringify(b.tools.map((t) => [t.name, t.description])),
    );
    for (const t of [T0, T0 + HOUR, ETH_FROM + 5 * MIN - 1]) {
      a.clock.t = t;
      b.clock.t = t;
      for (const [tool, args] of probes) expect(await a.call(tool, args)).toEqual(await b.call(tool, args));
    }
    expect(await a.call("report", { symbol: "ETH-USD", price: 10 })).toEqual({
      ok: false,
      error: 'unknown symbol "ETH-USD"; scored symbols: BTC-USD',
    });
  });

  it("once its first candle is visible, the docs list it and reports are accepted", async () => {
    const a = open(later.world);
    a.clock.t = ETH_FROM + 5 * MIN;
    const docs = (await a.call("get_exchange_docs", {})) as { ok: true; value: { symbols: string[] } };
    expect(docs.value.symbols).toEqual(["BTC-USD", "ETH-USD"]);
    expect(JSON.stringify(docs.value)).toContain('"ETH-USD":"ETHUSD"');
    expect(await a.call("report", { symbol: "ETH-USD", price: 10 })).toMatchObject({ ok: true });
    const k = (await a.call("http_fetch", probes[3]![1])) as { ok: true; value: { status: number; body: string } };
    expect(k.value.status).toBe(200);
    expect(JSON.parse(k.value.body)).toHaveLength(1);
    // the instruction stays the one of the run's start
    expect(a.run.instruction()).not.toContain("ETH");
  });

  it("within one run the docs follow the visible setup: the same frozen docs until a series appears, then new ones", async () => {
    const a = open(later.world);
    type Docs = { ok: true; value: { symbols: string[] } };
    const before = (await a.call("get_exchange_docs", {})) as Docs;
    a.clock.t = ETH_FROM;
    const stillBefore = (await a.call("get_exchange_docs", {})) as Docs;
    expect(stillBefore.value).toBe(before.value);
    expect(before.value.symbols).toEqual(["BTC-USD"]);
    // a caller cannot change what the next call returns
    expect(() => before.value.symbols.push("ETH-USD")).toThrow(TypeError);
    expect(() => {
      (before.value as Record<string, unknown>).task = "x";
    }).toThrow(TypeError);
    a.clock.t = ETH_FROM + 5 * MIN;
    const after = (await a.call("get_exchange_docs", {})) as Docs;
    expect(after.value.symbols).toEqual(["BTC-USD", "ETH-USD"]);
    expect(JSON.stringify(after.value)).toContain('"ETH-USD":"ETHUSD"');
    expect(JSON.stringify(before.value)).not.toContain("ETH");
  });
});
