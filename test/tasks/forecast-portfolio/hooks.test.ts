import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { forecastPortfolioTask } from "../../../src/tasks/forecast-portfolio/index.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { toolsAt } from "../../support/tools-at.js";
import { buildTinyMarketWorld, END, START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
beforeAll(() => {
  dir = buildTinyMarketWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

describe("forecast-portfolio contract hooks", () => {
  it("state(): the standing forecast of every open question (uniform default until the first)", async () => {
    const h = toolsAt(forecastPortfolioTask, world, { sim_start: START, sim_end: END });
    h.at(T("2026-03-01T07:00:00Z"));
    const line = (id: string) => `${id}: uniform default (no forecast yet)`;
    expect(h.run.state()).toEqual([
      {
        title: "standing forecasts (open questions)",
        lines: ["ld-a", "ld-c", "ld-d", "ld-e", "ld-g", "ld-h", "ld-b"].map(line),
      },
    ]);
    expect(await h.call("submit_forecast", { question_id: "ld-a", forecast: { Yes: 0.7, No: 0.3 } })).toMatchObject({
      ok: true,
    });
    h.at(T("2026-03-02T01:00:00Z"));
    // ld-d resolved (visible 03-02 00:00) and ld-h passed its scheduled end: no longer open
    expect(h.run.state()[0]!.lines).toEqual([
      'ld-a: {"Yes":0.7,"No":0.3} since 2026-03-01T07:00:00.000Z',
      line("ld-c"),
      line("ld-e"),
      line("ld-g"),
      line("ld-b"),
    ]);
    h.close();
  });

  it("observations(since, now): articles, questions as they become available, resolutions of task questions", () => {
    const h = toolsAt(forecastPortfolioTask, world, { sim_start: START, sim_end: END });
    h.at(T("2026-03-02T18:00:00Z"));
    expect(h.run.observations(START, T("2026-03-02T18:00:00Z"))).toEqual([
      { t: T("2026-03-01T01:00:00Z"), kind: "news", id: "n1", summary: "Event ld-a looks likely" },
      { t: T("2026-03-01T06:00:00Z"), kind: "question", id: "ld-b", summary: "Will event ld-b happen by 2026-03-03?" },
      { t: T("2026-03-02T00:00:00Z"), kind: "market_resolution", id: "ld-d", summary: "resolved Invalid" },
      { t: T("2026-03-02T12:00:00Z"), kind: "market_resolution", id: "ld-a", summary: "resolved Yes" },
      { t: T("2026-03-02T18:00:00Z"), kind: "market_resolution", id: "ld-g", summary: "resolved Yes" },
    ]);
    // ld-g closed at 06:00 but its result is public at 18:00: not an observation before that
    expect(h.run.observations(T("2026-03-02T12:00:00Z"), T("2026-03-02T17:59:59Z"))).toEqual([]);
    h.close();
  });

  it("observations never hold anything visible after now; no deadlines", () => {
    const h = toolsAt(forecastPortfolioTask, world, { sim_start: START, sim_end: END });
    let n = 0;
    for (let now = START + HOUR_MS; now <= END; now += HOUR_MS) {
      h.at(now);
      for (const o of h.run.observations(START, END)) expect(o.t).toBeLessThanOrEqual(now);
      n += h.run.observations(now - HOUR_MS, now).length;
    }
    // every observation of the window falls in exactly one hourly slice
    expect(n).toBe(h.run.observations(START, END).length);
    expect(n).toBe(7);
    expect(h.run.deadlines(h.ctx.view, END)).toEqual([]);
    h.close();
  });
});
