import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { defaultPolicy } from "../../src/run/resolve-run.js";
import { TASKS } from "../../src/tasks/registry.js";
import { exampleWatcher } from "../../src/triggers/watcher-trigger.js";
import { options, run } from "../run/helpers.js";
import { EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
/** parameters that keep a task off the browser (its API mode), as the tasks' own run tests do */
const PARAMS: Record<string, Record<string, unknown>> = {
  "filing-tracker": { portal_mode: "api" },
  "broker-ops": { site_mode: "api" },
};

const ledgerOf = (runDir: string) =>
  readLedgerLines(join(runDir, "ledger.jsonl")).map((l) => JSON.parse(l) as LedgerEvent);

/** what a scripted watcher run must show: the program validated, ran (waits name it) and never crashed */
function expectWatcherRan(events: LedgerEvent[], task: string) {
  const first = events.find((e) => e.type === "tool_call");
  expect(first, task).toMatchObject({
    tool: "run_program",
    args: { path: "watcher.example.js", validate: true },
    status: "ok",
  });
  const waits = events.filter((e) => e.type === "wait");
  expect(waits.length, task).toBeGreaterThan(0);
  expect(
    waits.every((w) => w.type === "wait" && w.tool === "run_program"),
    task,
  ).toBe(true);
  const notes = events
    .filter((e) => e.type === "note")
    .map((e) => (e.type === "note" ? `${e.kind}: ${e.message}` : ""));
  expect(notes, task).toEqual([]);
}

// Issue 11 §7: every task ships its own example watcher, and `scripted:<policy> --trigger watcher`
// runs it in the real sandbox as the wake mechanism, offline.
describe("the scripted agent under the watcher trigger", () => {
  it("every task ships its own example watcher (not the generic hourly poll)", () => {
    for (const t of TASKS) {
      expect(t.exampleWatcher, t.id).toBeTypeOf("string");
      expect(t.exampleWatcher, t.id).toContain(`watcher.example.js (${t.id})`);
      expect(t.exampleWatcher, t.id).not.toBe(exampleWatcher(undefined));
    }
  });

  it("daily-digest with the default scripted policy runs offline: handovers wake the policy, digest_acc as under sleep", async () => {
    const o = options();
    const sleep = await run({ task: "daily-digest", ...WINDOW }, o);
    const watcher = await run({ task: "daily-digest", ...WINDOW, agent: { trigger: "watcher" } }, o);
    expect(watcher.results.performance.primary).toEqual(sleep.results.performance.primary);
    expect(watcher.results.performance.primary.value).toBe(1);
    const events = ledgerOf(watcher.runDir);
    expectWatcherRan(events, "daily-digest");
    // each day: the watcher hands over at 12:05 with the top posts, and the program is stopped at the
    // policy's own 12:30 wake (run_program's until)
    const wakes = events.flatMap((e) => (e.type === "wake" ? [[new Date(e.t).toISOString(), e.reason]] : []));
    expect(wakes).toEqual([
      ["2026-03-01T00:00:00.000Z", "start"],
      ...["01", "02", "03"].flatMap((d) => [
        [`2026-03-${d}T12:05:00.000Z`, "handover"],
        [`2026-03-${d}T12:30:00.000Z`, "sleep"],
      ]),
    ]);
    // the watcher's own list_posts calls are billed like the agent's: one per day more than under sleep
    const calls = (evs: LedgerEvent[]) => evs.filter((e) => e.type === "tool_call" && e.tool === "list_posts").length;
    expect(calls(events)).toBe(calls(ledgerOf(sleep.runDir)) + 3);
  }, 900_000);

  it("event-response: the watcher hands over when an event needs a response; the poller answers it", async () => {
    const world = await importExample();
    const cfg = { task: "event-response", world: { dir: world }, task_params: { task_file: EXAMPLE_TASK } } as const;
    const r = await run({ ...cfg, agent: { model: "scripted:poll-15m", trigger: "watcher" } });
    const events = ledgerOf(r.runDir);
    expectWatcherRan(events, "event-response");
    expect(events.some((e) => e.type === "wake" && e.reason === "handover")).toBe(true);
    expect(r.results.performance.primary.value).toBeGreaterThanOrEqual(0.8);
  }, 900_000);

  for (const t of TASKS.filter((x) => x.id !== "event-response" && x.id !== "daily-digest"))
    it(`${t.id}: its example watcher validates and runs (${defaultPolicy(t).name} at each handover)`, async () => {
      const r = await run({
        task: t.id,
        ...WINDOW,
        ...(PARAMS[t.id] ? { task_params: PARAMS[t.id] } : {}),
        agent: { trigger: "watcher" },
      });
      expectWatcherRan(ledgerOf(r.runDir), t.id);
      expect(r.results.resources.wakes, t.id).toBeGreaterThan(1);
    }, 900_000);
});
