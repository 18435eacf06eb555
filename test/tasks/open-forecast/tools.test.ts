import { afterEach, describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { article, buildTiny, d, harness, q } from "./fixtures.js";

const H = 3_600_000;

/**
 * q1: open d0 → resolve d5 (crowd 0.3 at d0 − 1 day); q2: opens d2; q3: opens d2 but its row is
 * visible from d0 (released early by the world: the tools still hold it back); q4: resolve d1,
 * answer Yes public at d1. News: n1 at d0+1h, n2 at d1+1h, n3 at d3.
 */
function world(withNews = true) {
  return buildTiny({
    questions: [
      q("q1", d(0), d(5)),
      q("q2", d(2), d(6)),
      q("q3", d(2), d(6), { visible_at: d(0) }),
      q("q4", d(0), d(1)),
    ],
    resolutions: [{ question: "q4", answer: "Yes", resolved_at: d(1) - H, visible_at: d(1) }],
    answers: [
      { question: "q1", answer: "No", resolved_at: d(5) },
      { question: "q4", answer: "Yes", resolved_at: d(1) - H },
    ],
    prices: [{ market: "q1", outcome: "Yes", t: d(-1), p: 0.3, visible_at: d(-1) }],
    news: withNews
      ? [
          article(1, d(0) + H, "Central bank raises rates", "The central bank raised rates by half a point."),
          article(2, d(1) + H, "Storm hits the coast", "A storm hit the coast; the central bank is calm."),
          article(3, d(3), "Bank rates fall again", "Rates fell."),
        ]
      : [],
  });
}

const open: ReturnType<typeof harness>[] = [];
const make = (...a: Parameters<typeof harness>) => {
  const h = harness(...a);
  open.push(h);
  return h;
};
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

describe("open-forecast tools", () => {
  const dir = world();

  it("offers the §9 tools: news tools only with news, next_day only with a sleeping agent clock (memory is the harness's)", () => {
    expect(make(dir, { now: d(1) }).tools.sort()).toEqual(
      ["get_forecasts", "get_question", "list_questions", "read_article", "search_news", "submit_forecasts"].sort(),
    );
    expect(make(world(false), { now: d(1) }).tools).not.toContain("search_news");
    const clock = { trigger: "sleep" as const, sleepUntil: () => {} };
    expect(make(dir, { now: d(1), agentClock: clock }).tools).toContain("next_day");
    expect(make(dir, { now: d(1), agentClock: { trigger: "cron", sleepUntil: null } }).tools).not.toContain("next_day");
  });

  it("list_questions never shows a question before its open date (even when its row is visible early)", async () => {
    const h = make(dir, { now: d(1) + H });
    const all = await h.call("list_questions", { status: "all" });
    expect(all.ok && (all.value as { questions: { id: string }[] }).questions.map((x) => x.id)).toEqual(["q1", "q4"]);
    const unknown = await h.call("get_question", { id: "zz" });
    const early = await h.call("get_question", { id: "q3" });
    expect(unknown).toEqual({ ok: false, error: 'unknown question id: "zz"' });
    expect(early).toEqual({ ok: false, error: 'unknown question id: "q3"' });
    expect(await h.call("submit_forecasts", { question_id: "q2", outcomes: { Yes: 1 } })).toEqual({
      ok: false,
      error: 'unknown question id: "q2"',
    });
    h.setNow(d(2));
    const later = await h.call("list_questions", {});
    expect(later.ok && (later.value as { questions: { id: string }[] }).questions.map((x) => x.id)).toEqual([
      "q1",
      "q2",
      "q3",
    ]);
  });

  it("list_questions shows statuses, the crowd forecast and public answers; get_question the full text", async () => {
    const h = make(dir, { now: d(1) });
    const r = await h.call("list_questions", { status: "all" });
    expect(r.ok).toBe(true);
    const v = (r as { value: { total: number; questions: Record<string, unknown>[] } }).value;
    expect(v.total).toBe(2);
    expect(v.questions[0]).toMatchObject({
      id: "q1",
      status: "open",
      crowd: { p_yes: 0.3, as_of: "2026-02-28T00:00:00.000Z" },
      your_forecast: null,
    });
    expect(v.questions[1]).toMatchObject({ id: "q4", status: "resolved", answer: "Yes" });
    expect(await h.call("list_questions", { status: "resolved" })).toMatchObject({
      ok: true,
      value: { total: 1, questions: [{ id: "q4" }] },
    });
    expect(await h.call("get_question", { id: "q1" })).toMatchObject({
      ok: true,
      value: { criteria: "Resolves Yes if q1 happens.", status: "open" },
    });
    h.setNow(d(5));
    expect(await h.call("get_question", { id: "q1" })).toMatchObject({ ok: true, value: { status: "closed" } });
  });

  it("submit_forecasts validates and refuses with text (free); accepted forecasts are commitments", async () => {
    const h = make(dir, { now: d(1) + H });
    const bad: [unknown, string][] = [
      [{ question_id: "q1", outcomes: { a: 0.1, b: 0.1, c: 0.1, d: 0.1, e: 0.1, f: 0.1 } }, "at most 5"],
      [{ question_id: "q1", outcomes: { Yes: 1.5 } }, "[0, 1]"],
      [{ question_id: "q1", outcomes: { Yes: 0.7, No: 0.5 } }, "sum"],
      [{ question_id: "q1", outcomes: { Yes: 0.5, "YES ": 0.2 } }, "same answer"],
      [{ question_id: "q4", outcomes: { Yes: 1 } }, "is resolved"],
      [{ question_id: "q1", outcomes: "Yes" }, "invalid arguments"],
    ];
    for (const [args, text] of bad) {
      const r = await h.call("submit_forecasts", args);
      expect(r.ok).toBe(false);
      expect((r as { error: string }).error).toContain(text);
    }
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { Yes: 0.6, No: 0.3 } })).toMatchObject({
      ok: true,
      value: { accepted: true, unassigned: 0.1 },
    });
    h.setNow(d(2));
    await h.call("submit_forecasts", { question_id: "q1", outcomes: { No: 0.8 } });
    expect(await h.call("get_forecasts", {})).toMatchObject({
      ok: true,
      value: {
        forecasts: [
          {
            question_id: "q1",
            standing: { outcomes: { No: 0.8 }, since: "2026-03-03T00:00:00.000Z" },
            history: [{ outcomes: { Yes: 0.6, No: 0.3 } }, { outcomes: { No: 0.8 } }],
          },
        ],
      },
    });
    h.setNow(d(5));
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { No: 1 } })).toMatchObject({
      ok: false,
      error: expect.stringContaining("closed for forecasts"),
    });
    h.ledger.close();
    const ev = readLedger(h.ledger.path);
    expect(ev.filter((e) => e.type === "commitment")).toHaveLength(2);
    expect(
      ev
        .filter((e) => e.type === "tool_call" && e.status === "rejected")
        .every((e) => e.type === "tool_call" && e.cost_usd === 0),
    ).toBe(true);
  });

  it("search_news caps to_date at now with a note, bounds results by date, and prices each call", async () => {
    const h = make(dir, { now: d(1) + 2 * H });
    const r = await h.call("search_news", { query: "central bank", to_date: "2026-03-09" });
    expect(r.ok).toBe(true);
    const v = (r as { value: { note?: string; to: string; results: { id: string; published_at: string }[] } }).value;
    expect(v.note).toContain("capped to 2026-03-02T02:00:00.000Z");
    expect(v.to).toBe("2026-03-02T02:00:00.000Z");
    expect(v.results.map((x) => x.id).sort()).toEqual(["n1", "n2"]);
    const from = await h.call("search_news", { query: "central bank", from_date: "2026-03-02" });
    expect((from as { value: { results: { id: string }[] } }).value.results.map((x) => x.id)).toEqual(["n2"]);
    expect(await h.call("search_news", { query: "bank", from_date: "2026-03-05" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("after now"),
    });
    expect(await h.call("search_news", { query: "bank", from_date: "yesterday" })).toMatchObject({ ok: false });
    expect(await h.call("read_article", { id: "n3" })).toEqual({ ok: false, error: 'unknown news id: "n3"' });
    expect(await h.call("read_article", { id: "n1" })).toMatchObject({
      ok: true,
      value: { title: "Central bank raises rates" },
    });
    // two accepted searches and one article; rejected calls are free
    expect(h.wallet.spent).toBeCloseTo(3 * 0.002, 12);
  });

  it("next_day sleeps to the next midnight; with the memory phase the first call opens it and refuses forecasts", async () => {
    const sleeps: [number, string][] = [];
    const clock = { trigger: "sleep" as const, sleepUntil: (t: number, tool: string) => void sleeps.push([t, tool]) };
    const plain = make(dir, { now: d(1) + 5 * H, agentClock: clock });
    expect(await plain.call("next_day", {})).toEqual({
      ok: true,
      value: { sleeping_until: "2026-03-03T00:00:00.000Z" },
    });
    expect(sleeps).toEqual([[d(2), "next_day"]]);

    const h = make(dir, { now: d(1) + 5 * H, agentClock: clock, params: { memory_phase: true } });
    expect(await h.call("next_day", {})).toMatchObject({ ok: true, value: { memory_phase: true } });
    expect(sleeps).toHaveLength(1);
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { Yes: 1 } })).toMatchObject({
      ok: false,
      error: expect.stringContaining("memory phase"),
    });
    expect(await h.call("next_day", {})).toMatchObject({
      ok: true,
      value: { sleeping_until: "2026-03-03T00:00:00.000Z" },
    });
    expect(sleeps).toHaveLength(2);
    h.setNow(d(2));
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { Yes: 1 } })).toMatchObject({ ok: true });
    // without memory (the harness's memory tools off) there is no memory phase: next_day sleeps at once
    const off = make(dir, { now: d(1) + 5 * H, agentClock: clock, params: { memory: false, memory_phase: true } });
    expect(await off.call("next_day", {})).toMatchObject({
      ok: true,
      value: { sleeping_until: "2026-03-03T00:00:00.000Z" },
    });
  });

  it("the recap: once per day; articles, releases and public answers in every condition, scores only under oracle", () => {
    const h = make(dir, { now: d(0) });
    expect(h.run.wakeNote({ at: d(0), reason: "start" })).toBe("Recap, day 1 of 10 (2026-03-01): 2 questions open.");
    expect(h.run.wakeNote({ at: d(0) + H, reason: "start" })).toBeNull();
    h.setNow(d(2));
    const day3 = h.run.wakeNote({ at: d(2), reason: "start" });
    expect(day3).toBe(
      [
        "Recap, day 3 of 10 (2026-03-03): 3 questions open.",
        "Since 2026-03-01T00:00:00.000Z: 2 new articles, 2 new questions.",
        "Resolved: q4 → Yes.",
      ].join("\n"),
    );
    expect(day3).not.toMatch(/score/i);
    const withScores = make(dir, {
      now: d(0),
      oracleFeedback: {
        settled: (since) =>
          since !== null && since < d(1) ? [{ t: d(1), key: "q:q4", status: "forecast", credit: 0.5, detail: {} }] : [],
      },
    });
    withScores.run.wakeNote({ at: d(0), reason: "start" });
    withScores.setNow(d(2));
    expect(withScores.run.wakeNote({ at: d(2), reason: "start" })).toContain(
      "Your scores (mean daily score per question, 1 is perfect): q4 0.500.",
    );
  });

  it("the instruction names prices, limits and the trigger's day mechanics, never feedback", () => {
    const none = make(dir, { now: d(0), agentClock: { trigger: "sleep", sleepUntil: () => {} } });
    const text = none.run.instruction();
    expect(text).toContain("$0.002 per call");
    expect(text).toContain("next_day()");
    expect(text).toContain("{A: 0.65, B: 0.25} with A true scores 0.815");
    expect(text).not.toMatch(/feedback/i);
    const cron = make(dir, { now: d(0), agentClock: { trigger: "cron", sleepUntil: null } });
    expect(cron.run.instruction()).toContain("There is no next_day");
    const noNews = make(world(false), { now: d(0) });
    expect(noNews.run.instruction()).toContain("There is no news archive");
  });
});
