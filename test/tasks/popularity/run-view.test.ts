import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { popularityTask } from "../../../src/tasks/popularity/index.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { toolsAt } from "../../support/tools-at.js";
import { buildTinyRedditWorld, END, START, T } from "./tiny-world.js";

let world: WorldStore;
beforeAll(() => {
  world = WorldStore.open(buildTinyRedditWorld());
});
afterAll(() => world.close());

describe("popularity run hooks (hand-worked world)", () => {
  it("state: the rolling cap and the pending recommendations at each instant", async () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END, params: { cap: 3 } });
    expect(h.run.state()).toEqual([
      { title: "recommendation cap (rolling 24 h)", open: 0, lines: ["used 0 of 3, 3 remaining"] },
      { title: "pending recommendations (post not yet revealed)", lines: [] },
    ]);
    h.at(T("2026-03-01T03:30:00Z"));
    expect((await h.call("recommend", { root_id: "a1" })).ok).toBe(true);
    expect((await h.call("recommend", { root_id: "a3" })).ok).toBe(true);
    expect((await h.call("recommend", { root_id: "pre" })).ok).toBe(false);
    expect(h.run.state()).toEqual([
      {
        title: "recommendation cap (rolling 24 h)",
        open: 0,
        lines: [
          "used 2 of 3, 1 remaining",
          "a1 recommended 2026-03-01T03:30:00.000Z, slot frees 2026-03-02T03:30:00.000Z",
          "a3 recommended 2026-03-01T03:30:00.000Z, slot frees 2026-03-02T03:30:00.000Z",
        ],
      },
      {
        title: "pending recommendations (post not yet revealed)",
        lines: [
          "a1 created 2026-03-01T01:00:00.000Z, recommended 2026-03-01T03:30:00.000Z, reveals 2026-03-02T01:00:00.000Z",
          "a3 created 2026-03-01T03:00:00.000Z, recommended 2026-03-01T03:30:00.000Z, reveals 2026-03-02T03:00:00.000Z",
        ],
      },
    ]);
    // a1 revealed at 01:00; both slots still count until 03:30
    h.at(T("2026-03-02T01:30:00Z"));
    expect(h.run.state()[0]!.lines[0]).toBe("used 2 of 3, 1 remaining");
    expect(h.run.state()[1]!.lines).toEqual([
      "a3 created 2026-03-01T03:00:00.000Z, recommended 2026-03-01T03:30:00.000Z, reveals 2026-03-02T03:00:00.000Z",
    ]);
    // the window is (now − 24 h, now]: both slots free exactly at 03:30
    h.at(T("2026-03-02T03:30:00Z"));
    expect(h.run.state()).toEqual([
      { title: "recommendation cap (rolling 24 h)", open: 0, lines: ["used 0 of 3, 3 remaining"] },
      { title: "pending recommendations (post not yet revealed)", lines: [] },
    ]);
    // another run of the task has its own book
    expect(toolsAt(popularityTask, world, { sim_start: START, sim_end: END }).run.state()[0]!.lines).toEqual([
      "used 0 of 10, 10 remaining",
    ]);
    h.close();
  });

  it("observations: posts that became visible in (since, now], never past the view's clock", () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    h.at(T("2026-03-01T03:30:00Z"));
    const obs = (a: string, b: string) =>
      h.run.observations(T(a), T(b)).map((o) => [o.id, new Date(o.t).toISOString()]);
    expect(h.run.observations(START, T("2026-03-01T03:30:00Z"))).toEqual([
      { t: T("2026-03-01T01:00:00Z"), kind: "reddit_post", id: "a1", summary: "r/gamma: Post a1" },
      { t: T("2026-03-01T02:00:00Z"), kind: "reddit_post", id: "a2", summary: "r/gamma: Post a2" },
      { t: T("2026-03-01T03:00:00Z"), kind: "reddit_post", id: "a3", summary: "r/gamma: Post a3" },
    ]);
    // since exclusive, now inclusive
    expect(obs("2026-03-01T02:00:00Z", "2026-03-01T03:00:00Z")).toEqual([["a3", "2026-03-01T03:00:00.000Z"]]);
    // asking past the clock returns nothing the view cannot see yet (a4 is created at 04:00)
    expect(obs("2026-03-01T00:00:00Z", "2026-03-04T00:00:00Z").map((x) => x[0])).toEqual(["a1", "a2", "a3"]);
    h.at(T("2026-03-02T00:05:00Z"));
    expect(obs("2026-03-02T00:00:00Z", "2026-03-02T00:05:00Z").map((x) => x[0])).toEqual([
      "q1",
      "q2",
      "q3",
      "q4",
      "q5",
    ]);
    h.close();
  });

  it("self feedback is declared statically and the run gives the labels", () => {
    expect(popularityTask.selfFeedback?.description).toContain("comment counts visible at reveal");
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    expect(h.run.feedback.self!(null)).toEqual([]);
    h.close();
  });
});
