import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../../src/kernel/kernel.js";
import { priceCheckTask } from "../../../src/tasks/price-check/index.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolDef } from "../../../src/tools/tool.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildCandleWorld, HOUR, MIN, T0 } from "./fixtures.js";

const at = (h: number, m: number, s = 0) => T0 + h * HOUR + m * MIN + s * 1000;
const iso = (t: number) => new Date(t).toISOString();

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  ({ world, cleanup } = buildCandleWorld({
    venues: ["binance", "kraken"],
    symbols: ["BTC-USD", "ETH-USD"],
    intervalMs: 5 * MIN,
    from: T0 - HOUR,
    to: T0 + 4 * HOUR,
    close: (_v, s) => (s === "BTC-USD" ? 100 : 10),
  }));
});
afterAll(() => cleanup());

function open() {
  const clock = { t: T0 };
  const ctx: TaskRunContext<unknown> = {
    params: { incidents: false },
    feedback: "none",
    oracleFeedback: null,
    sim_start: T0,
    sim_end: at(3, 0),
    view: world.at(() => clock.t),
    kernel: undefined as unknown as Kernel, // price-check tools never move the clock
    budget_usd: 20,
    env_seed: 7,
    world,
  };
  const run = priceCheckTask.open(ctx);
  const tools = new Map(run.tools().map((t) => [t.name, t] as [string, ToolDef]));
  const call = (name: string, args: unknown) => tools.get(name)!.invoke(args, { now: () => clock.t, actor: "agent" });
  return { clock, ctx, run, call };
}

describe("price-check run hooks", () => {
  it("deadlines: every hour end in [now, until), from the view's time", () => {
    const { clock, ctx, run } = open();
    expect(run.deadlines(ctx.view, at(3, 0)).map(iso)).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-03-01T01:00:00.000Z",
      "2026-03-01T02:00:00.000Z",
    ]);
    clock.t = at(1, 20);
    expect(run.deadlines(ctx.view, at(2, 0, 1)).map(iso)).toEqual(["2026-03-01T02:00:00.000Z"]);
    expect(run.deadlines(ctx.view, at(2, 0))).toEqual([]);
  });

  it("state: which symbol-hours of the current hour are reported (the last action counts)", async () => {
    const { clock, run, call } = open();
    const title =
      "symbol-hours of 2026-03-01T01 UTC (scored at 2026-03-01T02:00:00.000Z: the last report or abstain counts)";
    clock.t = at(1, 10);
    expect(run.state()).toEqual([{ title, open: 2, lines: ["BTC-USD: nothing yet", "ETH-USD: nothing yet"] }]);
    expect((await call("report", { symbol: "BTC-USD", price: 100.5 })).ok).toBe(true);
    expect((await call("report", { symbol: "DOGE-USD", price: 1 })).ok).toBe(false);
    expect((await call("report", { symbol: "ETH-USD", price: -1 })).ok).toBe(false);
    clock.t = at(1, 50);
    expect((await call("abstain", { symbol: "ETH-USD" })).ok).toBe(true);
    expect(run.state()).toEqual([
      {
        title,
        open: 0,
        lines: [
          "BTC-USD: reported 100.5 at 2026-03-01T01:10:00.000Z",
          "ETH-USD: abstained at 2026-03-01T01:50:00.000Z",
        ],
      },
    ]);
    clock.t = at(1, 55);
    expect((await call("report", { symbol: "ETH-USD", price: 10 })).ok).toBe(true);
    expect(run.state()[0]!.lines[1]).toBe("ETH-USD: reported 10 at 2026-03-01T01:55:00.000Z");
    // a new hour starts empty
    clock.t = at(2, 0);
    expect(run.state()[0]!.lines).toEqual(["BTC-USD: nothing yet", "ETH-USD: nothing yet"]);
    expect(run.state()[0]!.open).toBe(2);
    // another run has its own book
    const other = open();
    other.clock.t = at(1, 55);
    expect(other.run.state()[0]!.lines).toEqual(["BTC-USD: nothing yet", "ETH-USD: nothing yet"]);
  });

  it("observations: candles completed in (since, now], never past the view's clock", () => {
    const { clock, run } = open();
    clock.t = at(0, 10);
    expect(run.observations(at(0, 0), at(0, 10))).toEqual(
      [at(0, 5), at(0, 10)].flatMap((t) =>
        ["binance:BTC-USD", "binance:ETH-USD", "kraken:BTC-USD", "kraken:ETH-USD"].map((vs) => {
          const [venue, symbol] = vs.split(":");
          return {
            t,
            kind: "candle",
            id: `${vs}:300000:${iso(t - 5 * MIN)}`,
            summary: `${venue} ${symbol} 5m candle opened ${iso(t - 5 * MIN)} completed`,
          };
        }),
      ),
    );
    // since exclusive, now inclusive
    expect(run.observations(at(0, 5), at(0, 10)).map((o) => o.t)).toEqual([at(0, 10), at(0, 10), at(0, 10), at(0, 10)]);
    // asking past the clock gives only what the view sees now
    expect(run.observations(at(0, 5), at(3, 0)).map((o) => o.t)).toEqual([at(0, 10), at(0, 10), at(0, 10), at(0, 10)]);
    expect(run.observations(at(0, 10), at(0, 10))).toEqual([]);
  });
});
