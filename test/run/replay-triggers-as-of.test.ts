import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { replayTriggersOnWorld } from "../../src/run/replay-triggers.js";
import { EXAMPLE_TASK } from "../tasks/event-response/example-world.js";
import { FORK_T, forkedWorlds } from "./forked-log.js";
import { options } from "./helpers.js";

// Issue 15 §4: counterfactual replay uses only what was visible at each check (as of), property-tested
// like the tools: two worlds identical before T and different after give identical replays up to T.

/** a trigger module recording every check it is asked (now and the observations it was given) */
const RECORDER = join(mkdtempSync(join(tmpdir(), "relive-recorder-")), "recorder.mjs");
writeFileSync(
  RECORDER,
  [
    "export function createTriggerPolicy() {",
    "  const seen = [];",
    "  (globalThis.__replaySeen ??= []).push(seen);",
    "  return {",
    '    name: "recorder",',
    "    check(now, obs) {",
    '      seen.push({ now, obs: obs.map((o) => o.id + "@" + o.t + ":" + o.kind) });',
    '      return obs.some((o) => o.kind === "page" || o.kind === "alert") ? "wake" : { sleepUntil: now + 7 * 60000 };',
    "    },",
    "  };",
    "}",
    "",
  ].join("\n"),
);
type Seen = { now: number; obs: string[] }[];
const g = globalThis as { __replaySeen?: Seen[] };

describe("replay-triggers is as of", () => {
  let worlds: { same: string; other: string };
  beforeAll(async () => {
    worlds = await forkedWorlds();
  });
  const replay = async (world: string) => {
    g.__replaySeen = [];
    const rep = await replayTriggersOnWorld(world, ["keyword:^(page|alert)$", "interval:45m", RECORDER], {
      ...options(),
      costPerWakeUsd: 0.01,
      taskParams: { task_file: EXAMPLE_TASK },
    });
    return { rep, seen: g.__replaySeen[0]! };
  };

  it("wakes and what each check saw up to T are identical across two futures; after T they differ", async () => {
    const a = await replay(worlds.same);
    const b = await replay(worlds.other);
    const upTo = (ts: number[]) => ts.filter((t) => t <= FORK_T);
    const pastT = (ts: number[]) => ts.filter((t) => t > FORK_T);
    for (const i of [0, 1, 2]) {
      const wa = a.rep.policies[i]!.wake_times;
      const wb = b.rep.policies[i]!.wake_times;
      expect(upTo(wa)).toEqual(upTo(wb));
    }
    // the data-driven policies wake before T on the log's alerts and pages (not only at the start)
    expect(upTo(a.rep.policies[0]!.wake_times).length).toBeGreaterThan(5);
    expect(upTo(a.rep.policies[2]!.wake_times).length).toBeGreaterThan(5);
    // every check up to T saw the same observations in both worlds
    const seenUpTo = (s: Seen) => s.filter((c) => c.now <= FORK_T);
    expect(seenUpTo(a.seen).length).toBeGreaterThan(50);
    expect(seenUpTo(a.seen)).toEqual(seenUpTo(b.seen));
    // the futures differ, and so do the data-driven replays after T (the comparison can fail)
    expect(pastT(a.rep.policies[0]!.wake_times)).not.toEqual(pastT(b.rep.policies[0]!.wake_times));
    expect(a.seen.filter((c) => c.now > FORK_T)).not.toEqual(b.seen.filter((c) => c.now > FORK_T));
    // nothing a check saw had become visible after the check
    for (const c of a.seen)
      for (const o of c.obs) expect(Number(o.split("@")[1]!.split(":")[0])).toBeLessThanOrEqual(c.now);
  }, 900_000);
});
