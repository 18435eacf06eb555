import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  oraclePolicy,
  silentPolicy,
  topCommentsPolicyAt1230,
  topCommentsPolicyAt1330,
} from "../../../src/tasks/daily-digest/reference-policies.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { drive } from "./mini-driver.js";
import { buildTinyWorld, T } from "./tiny-world.js";

// reference policies on the hand-worked world: two scored days (03-01, 03-02), 03-03 settles after the window
let dir: string;
let world: WorldStore;
let truth: TruthStore;
const window = { sim_start: T("2026-03-01T00:00:00Z"), sim_end: T("2026-03-04T00:00:00Z") };

beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

describe("daily-digest reference policies on the tiny world", () => {
  it("silent → 0, no calls", async () => {
    const r = await drive({ world, truth, ...window, policy: silentPolicy });
    expect(r.report.primary.value).toBe(0);
    expect(r.calls).toEqual([]);
    expect(r.outcomes.map((o) => o.status)).toEqual(["missed", "missed"]);
  });

  it("top-comments at 12:30 → 1.0 with one list_posts call a day", async () => {
    const r = await drive({ world, truth, ...window, policy: topCommentsPolicyAt1230 });
    expect(r.report.primary.value).toBe(1);
    const digests = r.calls.filter((c) => c.tool === "digest");
    expect(digests.map((c) => [c.t, c.ok])).toEqual([
      [T("2026-03-01T12:30:00Z"), true],
      [T("2026-03-02T12:30:00Z"), true],
      [T("2026-03-03T12:30:00Z"), true],
    ]);
    expect(r.calls.filter((c) => c.tool === "list_posts")).toHaveLength(3);
    expect(r.spent_usd).toBeCloseTo(3 * 0.00024, 12);
    expect(r.outcomes[1]!.detail.ids).toEqual(["h9", "h8", "h7", "h6", "h5", "h4", "h3", "h2", "h1", "h0"]);
  });

  it("top-comments at 13:30 → every digest rejected → 0.0", async () => {
    const r = await drive({ world, truth, ...window, policy: topCommentsPolicyAt1330 });
    expect(r.report.primary.value).toBe(0);
    const digests = r.calls.filter((c) => c.tool === "digest");
    expect(digests).toHaveLength(3);
    expect(digests.every((c) => !c.ok && c.error?.includes("has closed"))).toBe(true);
    expect(r.report.metrics.digests_rejected).toBe(3);
  });

  it("oracle → 1.0, delivered at the window opening, true top cascades", async () => {
    const r = await drive({ world, truth, ...window, policy: oraclePolicy });
    expect(r.report.primary.value).toBe(1);
    expect(r.outcomes.map((o) => o.detail.delivered_at)).toEqual([
      T("2026-03-01T12:00:00Z"),
      T("2026-03-02T12:00:00Z"),
    ]);
    // day 1: `old` (80 comments, created 1 ms before 03-01 12:00) is a day-1 candidate and the top cascade
    expect((r.outcomes[0]!.detail.ids as string[])[0]).toBe("old");
    // day 2: 59..51, then the tie at 50 (h0 vs exact) goes to the older post
    expect(r.outcomes[1]!.detail.ids).toEqual(["h9", "h8", "h7", "h6", "h5", "h4", "h3", "h2", "h1", "h0"]);
  });
});
