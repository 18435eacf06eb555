import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { article, buildTiny, d, harness, q } from "./fixtures.js";

const H = 3_600_000;

/**
 * q1: open d0 → resolve d5; q2: opens d2; q3: opens d2 but its row is visible from d0 (released on
 * its open date); q4: resolve d1, answer Yes public at d1. News: n1 at d0+1h, n2 at d1+1h, n3 at d3.
 */
let dir: string;
beforeAll(() => {
  dir = buildTiny({
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
    news: [
      article(1, d(0) + H, "Central bank raises rates"),
      article(2, d(1) + H, "Storm hits the coast"),
      article(3, d(3), "Bank rates fall again"),
    ],
  });
});
const open: ReturnType<typeof harness>[] = [];
afterAll(() => {
  for (const h of open) h.close();
});
const make = (now: number) => {
  const h = harness(dir, { now });
  open.push(h);
  return h;
};

describe("open-forecast contract hooks", () => {
  it("deadlines(view, until): the day ends (00:00 UTC) in [now, until), never sim_start itself", () => {
    const h = make(d(0));
    expect(h.run.deadlines(h.ctx.view, d(2))).toEqual([d(1)]);
    h.setNow(d(0) + 5 * H);
    expect(h.run.deadlines(h.ctx.view, d(3))).toEqual([d(1), d(2)]);
    h.setNow(d(1));
    expect(h.run.deadlines(h.ctx.view, d(3) + 1)).toEqual([d(1), d(2), d(3)]);
    expect(h.run.deadlines(h.ctx.view, d(1))).toEqual([]);
  });

  it("state(): the standing forecast of each open question", async () => {
    const h = make(d(0));
    expect(await h.call("submit_forecasts", { question_id: "q1", outcomes: { Yes: 0.6, No: 0.4 } })).toMatchObject({
      ok: true,
    });
    expect(h.run.state()).toEqual([
      {
        title: "standing forecasts (open questions)",
        lines: ['q1: {"Yes":0.6,"No":0.4} since 2026-03-01T00:00:00.000Z', "q4: no forecast yet"],
      },
    ]);
    h.setNow(d(2));
    // q4's answer is public (resolved); q2 and q3 are released on d2
    expect(h.run.state()[0]!.lines).toEqual([
      'q1: {"Yes":0.6,"No":0.4} since 2026-03-01T00:00:00.000Z',
      "q2: no forecast yet",
      "q3: no forecast yet",
    ]);
  });

  it("observations(since, now): articles, released questions, public answers; nothing visible after now", () => {
    const h = make(d(3));
    expect(h.run.observations(d(0), d(3))).toEqual([
      { t: d(0) + H, kind: "news", id: "n1", summary: "Central bank raises rates" },
      { t: d(1), kind: "question_resolution", id: "q4", summary: "answer Yes" },
      { t: d(1) + H, kind: "news", id: "n2", summary: "Storm hits the coast" },
      { t: d(2), kind: "question", id: "q2", summary: "Will q2 happen?" },
      { t: d(2), kind: "question", id: "q3", summary: "Will q3 happen?" },
      { t: d(3), kind: "news", id: "n3", summary: "Bank rates fall again" },
    ]);
    // at d1, q3's row is visible but the question is released only at d2; n3 is in the future
    const early = make(d(1) + H);
    expect(early.run.observations(d(0), d(10)).map((o) => o.id)).toEqual(["n1", "q4", "n2"]);
    for (let now = d(0); now <= d(4); now += H) {
      early.setNow(now);
      for (const o of early.run.observations(d(-1), d(10))) expect(o.t).toBeLessThanOrEqual(now);
    }
  });
});
