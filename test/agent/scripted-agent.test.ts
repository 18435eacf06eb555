import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { options, run } from "../run/helpers.js";
import { EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";

const wakesOf = (runDir: string) =>
  readLedgerLines(join(runDir, "ledger.jsonl"))
    .map((l) => JSON.parse(l) as { type: string; t: number; reason?: string; trigger_id?: string })
    .filter((e) => e.type === "wake");

// The scripted agent runs through the triggers' own install and wait code (issue 10 §4).
describe("the scripted agent under the run's trigger", () => {
  let world: string;
  beforeAll(async () => {
    world = await importExample();
  });
  const go = (trigger: "sleep" | "cron") =>
    run(
      {
        task: "event-response",
        world: { dir: world },
        task_params: { task_file: EXAMPLE_TASK },
        agent: { model: "scripted:poll-15m", trigger },
      },
      options(),
    );

  it("the cron poller wakes once per quarter hour, like the sleep poller (base */15 and the policy's */15 coincide)", async () => {
    const sleep = await go("sleep");
    const cron = await go("cron");
    expect(sleep.results.resources.wakes).toBe(288);
    expect(cron.results.resources.wakes).toBe(288);
    const wakes = wakesOf(cron.runDir);
    // one wake per instant: no instant is ledgered twice
    expect(new Set(wakes.map((w) => w.t)).size).toBe(wakes.length);
    // the base schedule (first by id) wins the coinciding firing; the policy's own entry is consumed
    expect(wakes.slice(0, 3).map((w) => [w.reason, w.trigger_id ?? null])).toEqual([
      ["start", null],
      ["cron", "base"],
      ["cron", "base"],
    ]);
    expect(cron.results.resources.spent_usd).toBeCloseTo(sleep.results.resources.spent_usd, 12);
    expect(cron.results.performance.primary).toEqual(sleep.results.performance.primary);
    const config = JSON.parse(readFileSync(join(cron.runDir, "config.json"), "utf8"));
    expect(config.config.agent.trigger).toBe("cron");
  }, 900_000);
});
