/**
 * The open-forecast ablations (issue 16 §2) as task_params: each switch changes what it names and
 * nothing else. `news: frozen` (property test: nothing published after day 0, at any later time),
 * `search: one-shot` (one retrieval per question, as of its release), `ceiling` (released one day
 * before resolve, scored from then), `anchor_from` (another run's day-0 forecasts, recorded by
 * path and ledger hash).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { frozenNewsCut } from "../../../src/tasks/open-forecast/ablation-view.js";
import { renderInstruction } from "../../../src/tasks/open-forecast/instruction.js";
import { oneShotQuery } from "../../../src/tasks/open-forecast/one-shot-news.js";
import { OpenForecastParams } from "../../../src/tasks/open-forecast/params.js";
import { OpenForecastScorer } from "../../../src/tasks/open-forecast/scorer.js";
import { article, buildTiny, d, harness, q, scorerCtx } from "./fixtures.js";

const H = 3_600_000;
const WORDS = ["bank", "rates", "storm", "coast", "central", "election", "vote", "court", "ruling", "zzz"];

/** q1 open d0 → resolve d5 (No); q2 open d2 → resolve d6 (Yes); q3 open d0 → d2 (Yes). News every 7 h over 8 days. */
function world() {
  const news = [];
  for (let i = 0; i < 28; i++) {
    const w1 = WORDS[i % WORDS.length]!;
    const w2 = WORDS[(i * 3 + 1) % WORDS.length]!;
    news.push(article(i + 1, d(0) + (i + 1) * 7 * H, `${w1} ${w2} report ${i}`, `The ${w1} and the ${w2} (${i}).`));
  }
  return buildTiny({
    questions: [
      q("q1", d(0), d(5), { title: "Will the central bank cut rates?" }),
      q("q2", d(2), d(6), { title: "Will the storm reach the coast?" }),
      q("q3", d(0), d(2)),
    ],
    resolutions: [
      { question: "q1", answer: "No", resolved_at: d(5), visible_at: d(5) },
      { question: "q3", answer: "Yes", resolved_at: d(2), visible_at: d(2) },
    ],
    answers: [
      { question: "q1", answer: "No", resolved_at: d(5) },
      { question: "q2", answer: "Yes", resolved_at: d(6) },
      { question: "q3", answer: "Yes", resolved_at: d(2) },
    ],
    news,
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

type Hit = { id: string; published_at: string };

describe("open-forecast ablation params", () => {
  it("defaults are the full configuration; bad values are refused naming the field", () => {
    expect(OpenForecastParams.parse({})).toMatchObject({
      news: "live",
      search: "agentic",
      ceiling: false,
      anchor_from: null,
    });
    const bad = OpenForecastParams.safeParse({ news: "stale", search: "two-shot" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["news", "search"]);
    const missing = OpenForecastParams.safeParse({ anchor_from: "/nonexistent/run" });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe("anchor run: no ledger.jsonl in /nonexistent/run");
  });

  it("each switch changes only its own lines of the instruction", () => {
    const base = {
      sim_start: d(0),
      sim_end: d(10),
      budget_usd: 20,
      trigger: "sleep" as const,
      news: true,
      nextDay: true,
      memory: true,
    };
    const lines = (params: Record<string, unknown>) =>
      renderInstruction({ ...base, params: OpenForecastParams.parse(params) }).split("\n");
    const full = lines({});
    const changed = (params: Record<string, unknown>) => {
      const l = lines(params);
      expect(l.length).toBe(full.length);
      return l.flatMap((x, i) => (x === full[i] ? [] : [i]));
    };
    const intro = full.findIndex((l) => l.startsWith("You forecast from"));
    const newsTool = full.findIndex((l) => l.startsWith("- `search_news"));
    expect(changed({ news: "frozen" })).toEqual([intro, newsTool]);
    expect(lines({ news: "frozen" })[intro]).toContain("The news archive is frozen at the end of 2026-03-01");
    expect(changed({ search: "one-shot" })).toEqual([newsTool]);
    expect(lines({ search: "one-shot" })[newsTool]).toContain("`question_news(question_id)`");
    expect(changed({ ceiling: true })).toEqual([intro]);
    expect(lines({ ceiling: true })[intro]).toContain("are each released one day before they resolve");
  });
});

describe("news: frozen", () => {
  const dir = world();
  const cut = frozenNewsCut(d(0));

  it("property: search_news and read_article return nothing published after day 0, at any later time, and answer exactly as at day 0's end", async () => {
    const frozen = make(dir, { now: cut, params: { news: "frozen" } });
    const atCut = make(dir, { now: cut, params: { news: "frozen" } });
    const live = make(dir, { now: cut });
    const ids = Array.from({ length: 28 }, (_, i) => `n${i + 1}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(" ", " OR "),
        fc.integer({ min: 0, max: 9 * 24 }),
        fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
        fc.constantFrom(...ids),
        async (words, op, hours, toDay, id) => {
          const now = d(0) + hours * H;
          frozen.setNow(now);
          atCut.setNow(Math.min(now, cut));
          live.setNow(Math.min(now, cut));
          const args = {
            query: words.join(op),
            ...(toDay !== undefined ? { to_date: new Date(d(toDay)).toISOString().slice(0, 10) } : {}),
          };
          const r = await frozen.call("search_news", args);
          expect(r.ok).toBe(true);
          const hits = (r as { value: { results: Hit[] } }).value.results;
          for (const h of hits) expect(Date.parse(h.published_at)).toBeLessThanOrEqual(cut);
          // the same answer as at the cut (or, before it, as the live tools give then), note text aside
          const ref = await (now >= cut ? atCut : live).call("search_news", args);
          expect((ref as { value: { results: Hit[] } }).value.results).toEqual(hits);
          const read = await frozen.call("read_article", { id });
          const published = d(0) + Number(id.slice(1)) * 7 * H;
          if (published <= Math.min(now, cut)) expect(read.ok).toBe(true);
          else expect(read).toEqual({ ok: false, error: `unknown news id: "${id}"` });
        },
      ),
      { numRuns: 150, seed: 16 },
    );
  });

  it("the recap counts no articles after day 0; to_date past the corpus gets the frozen note", async () => {
    const h = make(dir, { now: d(3), params: { news: "frozen" } });
    const r = await h.call("search_news", { query: "bank", to_date: "2026-03-09" });
    expect(r).toMatchObject({
      ok: true,
      value: {
        to: "2026-03-01T23:59:59.999Z",
        note: "to_date 2026-03-09 reaches past the frozen news corpus: results are capped to 2026-03-01T23:59:59.999Z",
      },
    });
    h.run.wakeNote({ at: d(1), reason: "start" });
    const note = h.run.wakeNote({ at: d(3), reason: "sleep" });
    expect(note).toContain("0 new articles");
    expect(h.run.observations(d(1), d(3)).filter((o) => o.kind === "news")).toEqual([]);
  });
});

describe("search: one-shot", () => {
  const dir = world();

  it("question_news replaces search_news: one retrieval per question, as of its release, charged once", async () => {
    const h = make(dir, { now: d(4), params: { search: "one-shot" } });
    expect(h.tools).toContain("question_news");
    expect(h.tools).toContain("read_article");
    expect(h.tools).not.toContain("search_news");
    expect(oneShotQuery("Will the storm reach the coast?")).toBe("will OR the OR storm OR reach OR coast");
    const first = await h.call("question_news", { question_id: "q2" });
    expect(first.ok).toBe(true);
    const v = (first as { value: { as_of: string; results: Hit[]; query: string } }).value;
    expect(v.as_of).toBe("2026-03-03T00:00:00.000Z");
    // the articles before q2's release (d2) naming the storm or the coast; n7.. (later) never appear
    expect(v.results.map((r) => r.id).sort()).toEqual(["n3", "n4", "n5"]);
    h.setNow(d(5));
    const again = await h.call("question_news", { question_id: "q2" });
    expect(again).toEqual({ ok: true, value: { ...(first as { value: object }).value, repeated: true } });
    // the first call costs one search, the repeat is free
    expect(h.wallet.spent).toBeCloseTo(0.002, 12);
    expect(await h.call("question_news", { question_id: "zz" })).toEqual({
      ok: false,
      error: 'unknown question id: "zz"',
    });
  });
});

describe("ceiling", () => {
  const dir = world();

  it("each question is released one day before it resolves; earlier forecasts are refused and the scorer ignores them", async () => {
    const h = make(dir, { now: d(1), params: { ceiling: true } });
    const ids = async () => {
      const r = await h.call("list_questions", { status: "all" });
      return (r as { value: { questions: { id: string }[] } }).value.questions.map((x) => x.id);
    };
    expect(await ids()).toEqual(["q3"]);
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { No: 1 } })).toEqual({
      ok: false,
      error: 'unknown question id: "q1"',
    });
    h.setNow(d(4));
    expect(await ids()).toEqual(["q3", "q1"]);
    expect(await h.call("get_question", { id: "q1" })).toMatchObject({
      ok: true,
      value: { open: "2026-03-05T00:00:00.000Z" },
    });
  });

  it("scores each question on its ceiling day only (day 0 = the day before it resolves)", () => {
    let seq = 0;
    const commit = (t: number, question_id: string, outcomes: Record<string, number>): LedgerEvent => ({
      seq: seq++,
      t,
      type: "commitment",
      actor: "agent",
      tool: "submit_forecasts",
      args: { question_id, outcomes },
    });
    const events = [
      commit(d(0) + H, "q1", { No: 0.5, Yes: 0.5 }), // before q1's ceiling release (d4): ignored under ceiling
      commit(d(1) + H, "q3", { Yes: 0.9, No: 0.1 }),
      commit(d(4) + H, "q1", { No: 0.8, Yes: 0.2 }),
      commit(d(5) + H, "q2", { Yes: 0.6, No: 0.4 }),
    ];
    const score = (params: Record<string, unknown>) => {
      const s = scorerCtx(dir, { params });
      try {
        const sc = new OpenForecastScorer(s.ctx);
        for (const e of events) sc.onEvent(e);
        const out = sc.settle(d(10));
        return { out, report: sc.report() };
      } finally {
        s.close();
      }
    };
    const c = score({ ceiling: true });
    expect(c.out.map((o) => [o.key, o.detail.first_day, o.detail.active_days])).toEqual([
      ["q:q3", "2026-03-02", 1],
      ["q:q1", "2026-03-05", 1],
      ["q:q2", "2026-03-06", 1],
    ]);
    expect(c.report.metrics.forecasts_ignored).toBe(1);
    expect(c.report.metrics.bss_day0).toBeCloseTo((0.98 + 0.92 + 0.68) / 3, 12);
    const full = score({});
    expect(full.report.metrics.forecasts_ignored).toBe(0);
    expect(full.out.find((o) => o.key === "q:q1")?.detail.first_day).toBe("2026-03-01");
  });
});

describe("anchor_from", () => {
  const dir = world();

  /** An anchor run directory: run_start (window from d0) and submissions on day 0 and later. */
  function anchorRun(task = "open-forecast"): string {
    const runDir = mkdtempSync(join(tmpdir(), "relive-anchor-"));
    const lines = [
      {
        seq: 0,
        t: d(0),
        type: "run_start",
        ledger_version: 2,
        run_id: "anchor",
        task,
        task_version: "1",
        episode: "x",
        sim_start: d(0),
        sim_end: d(10),
        seed: 1,
        agent: "scripted:x",
        trigger: "sleep",
        world_hash: "h",
        budget_usd: 20,
      },
      {
        seq: 1,
        t: d(0) + H,
        type: "commitment",
        actor: "agent",
        tool: "submit_forecasts",
        args: { question_id: "q1", outcomes: { Yes: 0.9 } },
      },
      {
        seq: 2,
        t: d(0) + 2 * H,
        type: "commitment",
        actor: "agent",
        tool: "submit_forecasts",
        args: { question_id: "q1", outcomes: { Yes: 0.7, No: 0.3 } },
      },
      {
        seq: 3,
        t: d(0) + 3 * H,
        type: "commitment",
        actor: "agent",
        tool: "submit_forecasts",
        args: { question_id: "q3", outcomes: { No: 1 } },
      },
      // after day 0: not part of the anchor
      {
        seq: 4,
        t: d(1) + H,
        type: "commitment",
        actor: "agent",
        tool: "submit_forecasts",
        args: { question_id: "q1", outcomes: { No: 1 } },
      },
    ];
    writeFileSync(join(runDir, "ledger.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    return runDir;
  }

  it("resolves to the run directory and its ledger hash; a changed ledger or another task is refused", () => {
    const runDir = anchorRun();
    const p = OpenForecastParams.parse({ anchor_from: runDir });
    expect(p.anchor_from).toMatch(new RegExp(`^${runDir}@sha256:[0-9a-f]{64}$`));
    // the resolved form parses to itself (config.json → run)
    expect(OpenForecastParams.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
    writeFileSync(join(runDir, "ledger.jsonl"), "");
    const changed = OpenForecastParams.safeParse(JSON.parse(JSON.stringify(p)));
    expect(changed.error?.issues[0]?.message).toContain("its ledger changed");
    const other = anchorRun("price-check");
    const s = scorerCtx(dir, { params: { anchor_from: other } });
    try {
      expect(() => new OpenForecastScorer(s.ctx)).toThrow(/a run of task price-check, not open-forecast/);
    } finally {
      s.close();
    }
  });

  it("the anchor's day-0 forecasts stand from sim_start in the tools and in the scorer", async () => {
    const params = { anchor_from: anchorRun() };
    const h = make(dir, { now: d(0), params });
    const f = await h.call("get_forecasts", {});
    expect(f).toMatchObject({
      ok: true,
      value: {
        forecasts: [
          { question_id: "q1", standing: { outcomes: { Yes: 0.7, No: 0.3 }, since: "2026-03-01T00:00:00.000Z" } },
          { question_id: "q3", standing: { outcomes: { No: 1 } } },
        ],
      },
    });
    expect(h.run.state()[0]?.lines).toEqual([
      'q1: {"Yes":0.7,"No":0.3} since 2026-03-01T00:00:00.000Z',
      'q3: {"No":1} since 2026-03-01T00:00:00.000Z',
    ]);
    const s = scorerCtx(dir, { params });
    try {
      const sc = new OpenForecastScorer(s.ctx);
      const out = sc.settle(d(10));
      const byKey = Object.fromEntries(out.map((o) => [o.key, o.detail]));
      // q1 (No): 1 − (0.3 − 1)² − 0.7² = 0.02 every day; q3 (Yes): 1 − 1 − 1 = −1; q2 opens later: no anchor
      expect(byKey["q:q1"]).toMatchObject({
        day0_score: expect.closeTo(0.02, 12),
        final_score: expect.closeTo(0.02, 12),
      });
      expect(byKey["q:q3"]).toMatchObject({ day0_score: -1 });
      expect(byKey["q:q2"]).toMatchObject({ day0_score: 0, final_forecast: null });
      expect(sc.report().metrics.bss_day0).toBeCloseTo((0.02 - 1 + 0) / 3, 12);
    } finally {
      s.close();
    }
  });
});
