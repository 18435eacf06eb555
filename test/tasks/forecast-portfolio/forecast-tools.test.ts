import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forecastPortfolioTask } from "../../../src/tasks/forecast-portfolio/index.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { toolsAt } from "../../support/tools-at.js";
import { buildTinyMarketWorld, END, START, T } from "./tiny-world.js";

describe("forecast-portfolio tools on the hand-worked world", () => {
  let world: WorldStore;
  beforeAll(() => {
    world = WorldStore.open(buildTinyMarketWorld());
  });
  afterAll(() => world.close());
  const harness = () => toolsAt(forecastPortfolioTask, world, { sim_start: START, sim_end: END });
  const value = (r: { ok: boolean }) => (r as { ok: true; value: Record<string, unknown> }).value;

  it("tools, kinds and prices: the question tools are free, news is priced, no price is ever exposed", async () => {
    const h = harness();
    expect(h.names()).toEqual([
      "list_questions",
      "get_question",
      "get_forecasts",
      "submit_forecast",
      "search_news",
      "get_article",
    ]);
    h.at(T("2026-03-01T02:00:00Z"));
    await h.call("list_questions", {});
    await h.call("search_news", { q: "event" });
    await h.call("get_article", { news_id: "n1" });
    expect(h.events.flatMap((e) => (e.type === "tool_call" ? [[e.tool, e.cost_usd]] : []))).toEqual([
      ["list_questions", 0],
      ["search_news", 0.002],
      ["get_article", 0.002],
    ]);
    const text = JSON.stringify(value(await h.call("get_question", { question_id: "ld-a" })));
    expect(text).not.toMatch(/0\.6|price/);
    h.close();
  });

  it("unknown, not-yet-open, other-prefix and non-binary ids give byte-identical errors", async () => {
    const h = harness();
    h.at(T("2026-03-01T02:00:00Z"));
    for (const id of ["nope", "ld-b", "ld-f", "brk-x", "ld-multi"]) {
      const expected = { ok: false, error: `unknown question id: ${JSON.stringify(id)}` };
      expect(await h.call("get_question", { question_id: id })).toEqual(expected);
      expect(await h.call("get_forecasts", { question_id: id })).toEqual(expected);
      expect(await h.call("submit_forecast", { question_id: id, forecast: { Yes: 0.5 } })).toEqual(expected);
    }
    h.close();
  });

  it("list_questions: statuses, results only once public, filters", async () => {
    const h = harness();
    h.at(T("2026-03-02T01:00:00Z"));
    const all = value(await h.call("list_questions", {})) as {
      questions: { id: string; status: string; resolution: unknown }[];
    };
    expect(all.questions.map((q) => [q.id, q.status, q.resolution])).toEqual([
      ["ld-old", "resolved", { result: "Yes", closed_at: "2026-02-20T00:00:00.000Z" }],
      ["ld-a", "open", null],
      ["ld-c", "open", null],
      ["ld-d", "resolved", { result: "Invalid", closed_at: "2026-03-02T00:00:00.000Z" }],
      ["ld-e", "open", null],
      ["ld-g", "open", null],
      ["ld-h", "closed", null],
      ["ld-b", "open", null],
    ]);
    const added = value(await h.call("list_questions", { added_after: "2026-03-01T00:00:00Z" })) as {
      questions: { id: string }[];
    };
    expect(added.questions.map((q) => q.id)).toEqual(["ld-b"]);
    const open = value(await h.call("list_questions", { status: "closed" })) as { count: number };
    expect(open.count).toBe(1);
    h.at(T("2026-03-02T18:00:00Z"));
    const g = value(await h.call("get_question", { question_id: "ld-g" }));
    expect(g).toMatchObject({
      status: "resolved",
      resolution: { result: "Yes", closed_at: "2026-03-02T06:00:00.000Z" },
    });
    expect(g.description).toBe("Resolves Yes if event ld-g happens.");
    h.close();
  });

  it("submit_forecast: the spec's rejections, free and clear; Σp < 1 accepted; resolved only once the result is public", async () => {
    const h = harness();
    h.at(T("2026-03-01T12:00:00Z"));
    const sub = (forecast: Record<string, number>, question_id = "ld-a", news_id?: string) =>
      h.call("submit_forecast", { question_id, forecast, ...(news_id ? { news_id } : {}) });
    expect(await sub({ Yes: 1.2 })).toEqual({
      ok: false,
      error: 'submit_forecast rejected: probability of "Yes" is 1.2: each probability must be in [0, 1]',
    });
    expect(await sub({ Yes: -0.1, No: 0.5 })).toMatchObject({ ok: false, error: expect.stringContaining("[0, 1]") });
    expect(await sub({ Yes: 0.7, No: 0.4 })).toEqual({
      ok: false,
      error: "submit_forecast rejected: the probabilities sum to 1.1 > 1; they must sum to at most 1 (less is allowed)",
    });
    expect(await sub({ Maybe: 0.5 })).toEqual({
      ok: false,
      error: 'submit_forecast rejected: unknown outcome "Maybe"; outcomes are "Yes", "No"',
    });
    expect(await sub({})).toMatchObject({ ok: false, error: expect.stringContaining("names no outcome") });
    expect(await sub({ Yes: 0.3, yes: 0.3 })).toMatchObject({ ok: false, error: expect.stringContaining("twice") });
    expect(await sub({ Yes: 0.5 }, "ld-a", "n2")).toEqual({ ok: false, error: 'unknown news id: "n2"' });
    expect(await sub({ Yes: 0.5 }, "ld-a", "zz")).toEqual({ ok: false, error: 'unknown news id: "zz"' });
    expect(await sub({ " yes ": 0.6, No: 0.3 }, "ld-a", "n1")).toEqual({
      ok: true,
      value: {
        accepted: true,
        question_id: "ld-a",
        forecast: { Yes: 0.6, No: 0.3 },
        unassigned: 0.1,
        standing_since: "2026-03-01T12:00:00.000Z",
      },
    });
    expect(await sub({ Yes: 0.1, No: 0.2, "no ": 0 })).toMatchObject({ ok: false });
    expect(await sub({ Yes: 0.2, No: 0.7, " NO": 0.1 })).toMatchObject({ ok: false });
    expect((await sub({ Yes: 0.1 + 0.2, No: 0.7 })).ok).toBe(true); // 1.0000000000000002 within the tolerance
    // ld-h passed its scheduled end (03-02 00:00) without a public result: closed
    h.at(T("2026-03-02T01:00:00Z"));
    expect(await sub({ Yes: 0.5 }, "ld-h")).toEqual({
      ok: false,
      error:
        "submit_forecast rejected: question ld-h closed at its scheduled end 2026-03-02T00:00:00.000Z; forecasts are closed",
    });
    // ld-g closed at 06:00 but its result is public only at 18:00: still accepted at 10:00
    h.at(T("2026-03-02T10:00:00Z"));
    expect((await sub({ Yes: 1 }, "ld-g")).ok).toBe(true);
    // ld-a resolves at 12:00: at 11:59:59.999 nothing tells it is resolved
    h.at(T("2026-03-02T11:59:59.999Z"));
    expect((await sub({ Yes: 0.9, No: 0.1 })).ok).toBe(true);
    h.at(T("2026-03-02T12:00:00Z"));
    expect(await sub({ Yes: 1 })).toEqual({
      ok: false,
      error:
        "submit_forecast rejected: question ld-a is resolved (Yes at 2026-03-02T12:00:00.000Z); forecasts are closed",
    });
    const hist = value(await h.call("get_forecasts", { question_id: "ld-a" }));
    expect(hist).toEqual({
      question_id: "ld-a",
      status: "resolved",
      standing: { Yes: 0.9, No: 0.1 },
      standing_since: "2026-03-02T11:59:59.999Z",
      history: [
        { submitted_at: "2026-03-01T12:00:00.000Z", forecast: { Yes: 0.6, No: 0.3 }, news_id: "n1" },
        { submitted_at: "2026-03-01T12:00:00.000Z", forecast: { Yes: 0.30000000000000004, No: 0.7 }, news_id: null },
        { submitted_at: "2026-03-02T11:59:59.999Z", forecast: { Yes: 0.9, No: 0.1 }, news_id: null },
      ],
    });
    expect(value(await h.call("get_forecasts", {}))).toEqual({
      forecasts: [
        {
          question_id: "ld-a",
          standing: { Yes: 0.9, No: 0.1 },
          standing_since: "2026-03-02T11:59:59.999Z",
          submissions: 3,
        },
        { question_id: "ld-g", standing: { Yes: 1 }, standing_since: "2026-03-02T10:00:00.000Z", submissions: 1 },
      ],
    });
    const calls = h.events.filter((e) => e.type === "tool_call" && e.tool === "submit_forecast");
    expect(calls.every((e) => e.type === "tool_call" && e.cost_usd === 0)).toBe(true);
    expect(h.events.filter((e) => e.type === "commitment")).toHaveLength(4);
    h.close();
  });
});
