import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS as DAY } from "../../../src/common/time.js";
import type { Kernel } from "../../../src/kernel/kernel.js";
import { taskEpisodes } from "../../../src/run/recipe-episodes.js";
import { AccountView, computeAgentBooks, PricesView } from "../../../src/tasks/risk-portfolio/agent-books.js";
import { riskPortfolioTask } from "../../../src/tasks/risk-portfolio/index.js";
import { RiskPortfolioParams } from "../../../src/tasks/risk-portfolio/params.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolResult } from "../../../src/tools/tool.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildTestWorld, D, HOUR, makeEnv, NON_TRADING_DAY, T, TEST_SYMBOLS, TEST_WINDOW } from "./fixtures.js";

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  ({ world, cleanup } = buildTestWorld());
});
afterAll(() => cleanup());

const params = RiskPortfolioParams.parse({});

function setup(p = params) {
  const { clock, env, tools } = makeEnv(world, p, TEST_WINDOW);
  const call = async (name: string, args: unknown): Promise<ToolResult> => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    const parsed = tool.args.safeParse(args);
    if (!parsed.success) return { ok: false, error: `invalid arguments: ${parsed.error.message}` };
    return tool.invoke(parsed.data, { now: () => clock.now, actor: "agent" });
  };
  const value = async (name: string, args: unknown) => {
    const r = await call(name, args);
    if (!r.ok) throw new Error(`${name} rejected: ${r.error}`);
    return r.value as Record<string, unknown>;
  };
  return { clock, env, tools, call, value };
}

describe("get_prices: closes of completed days only", () => {
  it("day D's close appears exactly at D+1 00:00, never before", async () => {
    const { clock, value } = setup();
    clock.now = T("2026-03-02T23:59:59.999Z");
    const before = PricesView.parse(await value("get_prices", { from: "2026-02-27" }));
    expect(before.last_complete_day).toBe("2026-03-01");
    expect(before.days.map((d) => d.day)).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    clock.now = T("2026-03-03T00:00:00Z");
    const at = PricesView.parse(await value("get_prices", { from: "2026-02-27" }));
    expect(at.days.map((d) => d.day)).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    // the close is the last hourly candle's close of the day
    const c = world.db
      .prepare("SELECT c FROM candle WHERE venue = 'kraken' AND symbol = 'ETH-USD' AND open_time = ?")
      .get(T("2026-03-02T23:00:00Z")) as { c: number };
    expect(at.days.at(-1)?.closes["ETH-USD"]).toBe(c.c);
  });

  it("`to` is capped to the last completed day; the default range is 30 days; long ranges are refused", async () => {
    const { clock, value, call } = setup();
    clock.now = T("2026-03-05T12:00:00Z");
    const r = await value("get_prices", { to: "2026-03-20" });
    expect(r.capped_to).toBe("2026-03-04");
    const dflt = PricesView.parse(await value("get_prices", {}));
    // the default range is the 30 days 02-03 → 03-04 (the last complete day); the world starts at 02-09
    expect(dflt.days[0]?.day).toBe("2026-02-09");
    expect(dflt.days.at(-1)?.day).toBe("2026-03-03");
    // days without a close for every symbol: before the data starts, and the gap
    expect(dflt.non_trading_days).toEqual([
      "2026-02-03",
      "2026-02-04",
      "2026-02-05",
      "2026-02-06",
      "2026-02-07",
      "2026-02-08",
      NON_TRADING_DAY,
    ]);
    expect(await call("get_prices", { from: "2024-01-01", to: "2026-03-01" })).toEqual({
      ok: false,
      error: "range 2024-01-01 → 2026-03-01 is longer than 400 days",
    });
    expect((await call("get_prices", { from: "2026-02-30" })).ok).toBe(false);
  });

  it("a non-trading day is listed only once its close time has passed", async () => {
    const { clock, value } = setup();
    clock.now = T("2026-03-04T23:00:00Z");
    expect(PricesView.parse(await value("get_prices", { from: "2026-03-01" })).non_trading_days).toEqual([]);
    clock.now = T("2026-03-05T00:00:00Z");
    expect(PricesView.parse(await value("get_prices", { from: "2026-03-01" })).non_trading_days).toEqual([
      NON_TRADING_DAY,
    ]);
  });
});

describe("submit_orders: timing, legs, cap, all or nothing", () => {
  it("orders of day D execute at D's close and show in get_account from D+1 00:00", async () => {
    const { clock, value } = setup();
    clock.now = T("2026-03-02T10:00:00Z");
    const acc = await value("submit_orders", { orders: [{ symbol: "ETH-USD", side: "buy", qty: 100 }] });
    expect(acc).toEqual({
      accepted: [{ order_id: "O-00001", symbol: "ETH-USD", side: "buy", qty: 100 }],
      executes_at_close_of: "2026-03-02",
      close_time: "2026-03-03T00:00:00.000Z",
    });
    clock.now = T("2026-03-02T23:59:59Z");
    const pending = AccountView.parse(await value("get_account", {}));
    expect(pending.executions).toEqual([]);
    expect(pending.pending_orders.map((o) => o.order_id)).toEqual(["O-00001"]);
    clock.now = T("2026-03-03T00:00:00Z");
    const a = AccountView.parse(await value("get_account", {}));
    const px = PricesView.parse(await value("get_prices", { from: "2026-03-02", to: "2026-03-02" })).days[0]!.closes;
    expect(a.executions).toEqual([
      {
        fill_id: "F-00001",
        order_id: "O-00001",
        day: "2026-03-02",
        executed_at: "2026-03-03T00:00:00.000Z",
        symbol: "ETH-USD",
        side: "buy",
        qty: 100,
        price: px["ETH-USD"],
      },
    ]);
    const notional = 100 * (px["ETH-USD"] as number);
    expect(a.cash).toBeCloseTo(10_000_000 - notional * 1.0006, 6);
    expect(a.shares).toEqual({ "BTC-USD": 0, "ETH-USD": 100, "SOL-USD": 0 });
    // 03-01's window closes exactly now: only 03-02 is due
    expect(a.books_due).toEqual([{ day: "2026-03-02", deadline: "2026-03-04T00:00:00.000Z" }]);
  });

  it("an order on a non-trading day executes at the next trading day's close; borrow accrues over both days", async () => {
    const { clock, value } = setup();
    clock.now = T("2026-03-03T08:00:00Z");
    await value("submit_orders", { orders: [{ symbol: "BTC-USD", side: "short", qty: 10 }] });
    clock.now = T(`${NON_TRADING_DAY}T08:00:00Z`);
    await value("submit_orders", { orders: [{ symbol: "BTC-USD", side: "short", qty: 5 }] });
    clock.now = T("2026-03-05T00:00:00Z");
    expect(AccountView.parse(await value("get_account", {})).executions.map((e) => e.day)).toEqual(["2026-03-03"]);
    clock.now = T("2026-03-06T00:00:00Z");
    const a = AccountView.parse(await value("get_account", {}));
    expect(a.executions.map((e) => [e.fill_id, e.day])).toEqual([
      ["F-00001", "2026-03-03"],
      ["F-00002", "2026-03-05"],
    ]);
    const p = PricesView.parse(await value("get_prices", { from: "2026-03-03" }));
    const books = computeAgentBooks({ days: p.days, executions: a.executions, rules: a.rules });
    const b5 = books.find((b) => b.day === "2026-03-05")!.book;
    const c3 = p.days.find((d) => d.day === "2026-03-03")!.closes["BTC-USD"] as number;
    expect(b5.costs.borrow).toBeCloseTo((0.04 * 2 * 10 * c3) / 365, 9);
    expect(((await value("validate_books", { books })) as { valid: boolean }).valid).toBe(true);
  });

  it("crossing zero in one leg is refused, two ordered legs pass; pending orders count", async () => {
    const { clock, call, value } = setup();
    clock.now = T("2026-03-02T10:00:00Z");
    await value("submit_orders", { orders: [{ symbol: "SOL-USD", side: "buy", qty: 1000 }] });
    const r = await call("submit_orders", { orders: [{ symbol: "SOL-USD", side: "sell", qty: 1500 }] });
    expect(r).toEqual({
      ok: false,
      error:
        "order 1: sell 1500 SOL-USD exceeds the long of 1000 and would cross zero: sell 1000, then short 500 (two ordered legs) (positions include your pending orders). Nothing was accepted.",
    });
    const short = await call("submit_orders", { orders: [{ symbol: "SOL-USD", side: "short", qty: 1 }] });
    expect(short.ok).toBe(false);
    const legs = await value("submit_orders", {
      orders: [
        { symbol: "SOL-USD", side: "sell", qty: 1000 },
        { symbol: "SOL-USD", side: "short", qty: 500 },
      ],
    });
    expect((legs.accepted as unknown[]).length).toBe(2);
  });

  it("a refused batch leaves nothing behind (all or nothing)", async () => {
    const { clock, call, value } = setup();
    clock.now = T("2026-03-02T10:00:00Z");
    const r = await call("submit_orders", {
      orders: [
        { symbol: "BTC-USD", side: "buy", qty: 1 },
        { symbol: "DOGE-USD", side: "buy", qty: 1 },
      ],
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/order 2: unknown symbol "DOGE-USD"; the universe is BTC-USD, ETH-USD, SOL-USD/);
    expect(AccountView.parse(await value("get_account", {})).pending_orders).toEqual([]);
    const bad = await call("submit_orders", { orders: [{ symbol: "BTC-USD", side: "buy", qty: 1.5 }] });
    expect(bad.ok).toBe(false);
    expect((await call("submit_orders", { orders: [] })).ok).toBe(false);
  });

  it("the pre-trade leverage cap refuses a batch that raises gross above the cap, never one that reduces it", async () => {
    const { clock, call, value } = setup();
    // a day d (in the window) after which BTC rose ≥ 0.5%: a short sized at 1.99× equity on day d
    // executes at d's close and is above 2× equity at d+1's close
    clock.now = TEST_WINDOW.end;
    const days = PricesView.parse(await value("get_prices", { from: "2026-03-01" })).days;
    const i = days.findIndex(
      (x, k) =>
        k + 1 < days.length && (days[k + 1]!.closes["BTC-USD"] as number) > (x.closes["BTC-USD"] as number) * 1.005,
    );
    expect(i).toBeGreaterThanOrEqual(1);
    const d = days[i]!;
    const prev = days[i - 1]!.closes["BTC-USD"] as number;
    clock.now = D(d.day) + HOUR;
    const qty = Math.floor((1.99 * 10_000_000) / prev);
    const over = await call("submit_orders", { orders: [{ symbol: "BTC-USD", side: "short", qty: qty + 20 }] });
    expect(!over.ok && over.error).toMatch(/above 2 × the estimated equity .* \(the pre-trade leverage cap\)/);
    await value("submit_orders", { orders: [{ symbol: "BTC-USD", side: "short", qty }] });
    clock.now = D(days[i + 1]!.day) + DAY + HOUR;
    expect((await call("submit_orders", { orders: [{ symbol: "ETH-USD", side: "buy", qty: 1 }] })).ok).toBe(false);
    expect((await call("submit_orders", { orders: [{ symbol: "BTC-USD", side: "cover", qty: 1 }] })).ok).toBe(true);
  });
});

describe("submit_books and validate_books", () => {
  async function correctBooks(value: (n: string, a: unknown) => Promise<Record<string, unknown>>) {
    const a = AccountView.parse(await value("get_account", {}));
    const p = PricesView.parse(await value("get_prices", { from: "2026-02-20" }));
    return computeAgentBooks({ days: p.days, executions: a.executions, rules: a.rules });
  }

  it("files once per trading day inside its window; clear free refusals otherwise", async () => {
    const { clock, call, value } = setup();
    clock.now = T("2026-03-01T05:00:00Z");
    await value("submit_orders", { orders: [{ symbol: "ETH-USD", side: "short", qty: 50 }] });
    clock.now = T("2026-03-02T00:30:00Z");
    const [b1] = await correctBooks(value);
    expect(b1?.day).toBe("2026-03-01");
    const book = b1!.book;
    expect(await call("submit_books", { day: "2026-02-28", book })).toEqual({
      ok: false,
      error: "2026-02-28 is before the account opened (its first day is 2026-03-01)",
    });
    expect(await call("submit_books", { day: "2026-03-02", book })).toEqual({
      ok: false,
      error: "the close of 2026-03-02 is not known yet: its book can be filed from 2026-03-03T00:00:00.000Z",
    });
    expect(await value("submit_books", { day: "2026-03-01", book })).toEqual({
      accepted: true,
      day: "2026-03-01",
      filed_at: "2026-03-02T00:30:00.000Z",
    });
    expect(await call("submit_books", { day: "2026-03-01", book })).toEqual({
      ok: false,
      error: "2026-03-01 is already filed (at 2026-03-02T00:30:00.000Z); filed books are final",
    });
    clock.now = T("2026-03-05T01:00:00Z");
    expect(await call("submit_books", { day: NON_TRADING_DAY, book })).toEqual({
      ok: false,
      error: `${NON_TRADING_DAY} has no close (a non-trading day): no book is due for it`,
    });
    expect(await call("submit_books", { day: "2026-03-02", book })).toEqual({
      ok: false,
      error: "the filing window of 2026-03-02 closed at 2026-03-04T00:00:00.000Z",
    });
    // a number JSON cannot hold finitely (1e400 parses as Infinity) is refused at the boundary
    const inf = await call(
      "submit_books",
      JSON.parse(
        `{"day":"2026-03-03","book":${JSON.stringify({ ...book, cash: 0 }).replace('"cash":0', '"cash":1e400')}}`,
      ),
    );
    expect(!inf.ok && inf.error).toMatch(/expected number, received Infinity/);
    const a = AccountView.parse(await value("get_account", {}));
    expect(a.books_filed).toEqual(["2026-03-01"]);
    // 03-03's window closed at 03-05 00:00 and 03-04 has no close: nothing is due
    expect(a.books_due).toEqual([]);
  });

  it("validate_books: correct books are valid; errors are listed; a future day reads like a non-trading day", async () => {
    const { clock, value } = setup();
    clock.now = T("2026-03-01T05:00:00Z");
    await value("submit_orders", {
      orders: [
        { symbol: "BTC-USD", side: "buy", qty: 3 },
        { symbol: "SOL-USD", side: "short", qty: 700 },
      ],
    });
    clock.now = T("2026-03-03T00:10:00Z");
    const books = await correctBooks(value);
    expect(books.map((b) => b.day)).toEqual(["2026-03-01", "2026-03-02"]);
    expect(await value("validate_books", { books })).toEqual({ valid: true, checked: 2, errors: [] });
    const bad = structuredClone(books);
    bad[1]!.book.costs.borrow = 0;
    const v = (await value("validate_books", { books: bad })) as { valid: boolean; errors: { code: string }[] };
    expect(v.valid).toBe(false);
    expect(v.errors.map((e) => e.code)).toContain("cost_mismatch");
    const future = (await value("validate_books", { books: [{ day: "2026-03-03", book: books[1]!.book }] })) as {
      errors: { message: string }[];
    };
    clock.now = T("2026-03-05T00:10:00Z");
    const holiday = (await value("validate_books", { books: [{ day: NON_TRADING_DAY, book: books[1]!.book }] })) as {
      errors: { message: string }[];
    };
    expect(future.errors[0]?.message.replace("2026-03-03", "D")).toBe(
      holiday.errors[0]?.message.replace(NON_TRADING_DAY, "D"),
    );
  });
});

describe("task definition", () => {
  function ctx(feedback: "none" | "oracle", clock = { now: TEST_WINDOW.start }): TaskRunContext<RiskPortfolioParams> {
    return {
      params,
      feedback,
      oracleFeedback: null,
      sim_start: TEST_WINDOW.start,
      sim_end: TEST_WINDOW.end,
      view: world.at(() => clock.now),
      kernel: undefined as unknown as Kernel,
      budget_usd: 20,
      env_seed: 0,
      world,
    };
  }

  it("fields, episodes and policies", () => {
    const t = riskPortfolioTask;
    expect([t.id, t.budget_usd, t.baseSchedule, t.defaultEpisode, t.metrics.primary]).toEqual([
      "risk-portfolio",
      20,
      "5 0 * * *",
      "synth-28d",
      "risk_score",
    ]);
    // the real episode is the shipped recipe's (recipes/svb-2023.yaml)
    expect(taskEpisodes(t).map((e) => [e.name, e.sim_start, e.sim_end, e.world.kind])).toEqual([
      ["synth-28d", D("2026-03-01"), D("2026-03-29"), "synth"],
      ["synth-7d", D("2026-03-01"), D("2026-03-08"), "synth"],
      ["svb-2023", D("2023-03-01"), D("2023-03-22"), "recipe"],
    ]);
    expect(t.referencePolicies.map((p) => p.name)).toEqual(["silent", "oracle", "momentum-risk-parity", "hold-cash"]);
    const c = ctx("none", { now: D("2026-03-01") + 1 });
    expect(t.open(c).deadlines(c.view, D("2026-03-04"))).toEqual([D("2026-03-02"), D("2026-03-03")]);
    expect(t.selfFeedback).toBeUndefined();
    expect(t.open(c).feedback.self).toBeNull();
  });

  it("params: spec defaults, strict", () => {
    expect(params).toMatchObject({
      initial_cash: 10_000_000,
      commission_bps: 5,
      slippage_bps: 1,
      borrow_rate: 0.04,
      day_count: 365,
      tol_cash: 1e-6,
      tol_ratio: 1e-12,
      var_level: 0.95,
    });
    expect(RiskPortfolioParams.safeParse({ nope: 1 }).success).toBe(false);
  });

  it("the same tools and instruction in every condition, rendered with the real rules; no feedback anywhere", () => {
    const blind = ctx("none");
    const text = riskPortfolioTask.open(blind).instruction();
    expect(text).toContain("BTC-USD, ETH-USD, SOL-USD (daily closes from kraken) from 2026-03-01 to 2026-03-10");
    expect(text).toContain("10,000,000");
    expect(text).toContain("commission 5 bps and slippage 1 bp");
    expect(text).toContain("Borrow: 4% a year, ACT/365");
    expect(text).toContain("$20.00");
    expect(text.toLowerCase()).not.toContain("feedback");
    const tools = riskPortfolioTask.open(blind).tools();
    expect(tools.map((t) => t.name)).toEqual([
      "get_prices",
      "get_account",
      "submit_orders",
      "submit_books",
      "validate_books",
    ]);
    expect(JSON.stringify(tools.map((t) => t.description)).toLowerCase()).not.toContain("feedback");
    expect(riskPortfolioTask.open(ctx("oracle")).instruction()).toBe(text);
    expect(
      riskPortfolioTask
        .open(ctx("oracle"))
        .tools()
        .map((t) => t.description),
    ).toEqual(tools.map((t) => t.description));
    expect(TEST_SYMBOLS.every((s) => text.includes(s))).toBe(true);
  });

  it("run hooks: books due and filed, daily closes observed, nothing past the view's clock", async () => {
    const clock = { now: T("2026-03-02T00:30:00Z") };
    const c = ctx("none", clock);
    const run = riskPortfolioTask.open(c);
    const tools = new Map(run.tools().map((x) => [x.name, x]));
    const value = async (name: string, args: unknown) => {
      const r = await tools.get(name)!.invoke(args, { now: () => clock.now, actor: "agent" });
      if (!r.ok) throw new Error(`${name} rejected: ${r.error}`);
      return r.value as Record<string, unknown>;
    };
    const due = "books due (filing window open, not filed)";
    const filed = "books filed (final)";
    expect(run.state()).toEqual([
      { title: due, lines: ["2026-03-01: due before 2026-03-03T00:00:00.000Z"] },
      { title: filed, open: 0, lines: [] },
    ]);
    const a = AccountView.parse(await value("get_account", {}));
    const p = PricesView.parse(await value("get_prices", { from: "2026-02-20" }));
    const [b1] = computeAgentBooks({ days: p.days, executions: a.executions, rules: a.rules });
    await value("submit_books", { day: "2026-03-01", book: b1!.book });
    expect(run.state()).toEqual([
      { title: due, lines: [] },
      { title: filed, open: 0, lines: ["2026-03-01: filed 2026-03-02T00:30:00.000Z"] },
    ]);
    clock.now = T("2026-03-04T12:00:00Z");
    expect(run.state()[0]!.lines).toEqual(["2026-03-03: due before 2026-03-05T00:00:00.000Z"]);
    // the deadlines are the midnights in [now, until)
    expect(run.deadlines(c.view, D("2026-03-07"))).toEqual([D("2026-03-05"), D("2026-03-06")]);
    clock.now = D("2026-03-05");
    expect(run.deadlines(c.view, D("2026-03-06") + 1)).toEqual([D("2026-03-05"), D("2026-03-06")]);
    clock.now = T("2026-03-04T12:00:00Z");
    const obs = run.observations(D("2026-03-01"), clock.now);
    expect(obs.map((o) => [o.kind, o.id, o.t])).toEqual([
      ["daily_close", "2026-03-01", D("2026-03-02")],
      ["daily_close", "2026-03-02", D("2026-03-03")],
      ["daily_close", "2026-03-03", D("2026-03-04")],
    ]);
    const close1 = p.days.find((d) => d.day === "2026-03-01")!;
    expect(obs[0]!.summary).toBe(
      `close of 2026-03-01: ${TEST_SYMBOLS.map((s) => `${s} ${close1.closes[s]}`).join(", ")}`,
    );
    // since exclusive: 02-28's close (known at 03-01 00:00) is in (03-01 − 1 ms, …]
    expect(run.observations(D("2026-03-01") - 1, clock.now)[0]!.id).toBe("2026-02-28");
    // asking past the clock: only closes known now
    expect(run.observations(D("2026-03-01"), D("2026-03-10")).map((o) => o.id)).toEqual([
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
    ]);
    // 03-04 has no close (a non-trading day): nothing becomes visible at 03-05 00:00
    clock.now = T("2026-03-05T01:00:00Z");
    expect(run.observations(D("2026-03-04"), clock.now)).toEqual([]);
  });
});
