/**
 * Different futures (DESIGN invariant 2) over every agent-facing surface besides random tool calls:
 * the synthetic world of seed 1 and the same world re-drawn after a cut T (`future: {seed: 99,
 * from: T}`) must look the same at every time ≤ T through
 * - the instruction and the tool definitions (names, descriptions, argument schemas) of every task,
 *   rendered for the whole window at its start;
 * - an honest reference policy of every task driven through its own tools from the window start to
 *   T (sleep trigger, `feedback: oracle`, strict as-of search statistics so that search is
 *   byte-comparable too): every tool result, and at each wake the state block, the observations
 *   since the last wake, the wake note (open-forecast's daily recap), the `self` labels where the
 *   task has them, and `get_feedback` (oracle payloads released by then);
 * - the deadline guard: the deadlines each of its polls (every 15 min up to T, looking one margin
 *   plus two polls ahead) would install, hence its wake times.
 * event-response is left out here: its worlds are imported event logs (no synthetic future); its
 * different-futures test over two logs is test/different-futures/event-response.property.test.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { getTask } from "../../src/tasks/registry.js";
import { DEADLINE_GUARD_MARGIN_MS, DEADLINE_GUARD_POLL_MS } from "../../src/triggers/deadline-guard.js";
import { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";
import { synthFuturesPair } from "../support/different-futures.js";
import { toolHarness } from "../support/leakage.js";
import { driveTask } from "../support/task-driver.js";
import { wakeSurfaceRecorder } from "../support/wake-surfaces.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-05T00:00:00Z");
const CUT = START + 2 * D + 13 * H + 17 * 60_000;

const { worldA, worldB } = synthFuturesPair({ seed: 1, futureSeed: 99, start: START, end: END, cut: CUT });

/** task, honest policy, task params, drive start (default: the window start) */
const CASES: [task: string, policy: string, params?: unknown, from?: number][] = [
  ["breakout-news", "news-burst"],
  ["resolution-detect", "news-cue"],
  // the Reddit policies poll often over ~80 posts an hour: driven over the last 3 hours before T
  ["popularity", "velocity", undefined, CUT - 3 * H],
  ["daily-digest", "top-comments", undefined, CUT - 3 * H],
  ["price-check", "median-poll"],
  ["forecast-portfolio", "news-forecaster"],
  ["filing-tracker", "perfect-client", { portal_mode: "api" }],
  ["broker-ops", "poller-25m"],
  ["open-forecast", "base-rate-news"],
  ["open-forecast", "crowd"],
  ["risk-portfolio", "momentum-risk-parity"],
];

const TASKS = [...new Set(CASES.map((c) => c[0]))];

/** what an agent sees of a run at T: the instruction and the tool definitions */
function openedSurface(dir: string, taskId: string, params: unknown) {
  const h = toolHarness(taskId, dir, START, { start: START, end: END, params });
  try {
    const tools = h.run.tools().map((t) => ({
      name: t.name,
      description: t.description,
      args: z.toJSONSchema(t.args, { io: "input" }),
    }));
    return JSON.stringify({ instruction: h.run.instruction(), tools });
  } finally {
    void h.run.dispose();
    h.close();
  }
}

/** the drive of `policy` to T on one world: every wake's surfaces and the agent's ledger lines */
async function drive(dir: string, taskId: string, policyName: string, params: unknown, from: number) {
  const world = WorldStore.open(dir);
  const truth = TruthStore.open(dir);
  const task = getTask(taskId);
  const policy = task.referencePolicies.find((p) => p.name === policyName);
  if (!policy) throw new Error(`${taskId} has no policy ${policyName}`);
  expect(policy.oracle ?? false, `${taskId}/${policyName} must be honest`).toBe(false);
  const surfaces = wakeSurfaceRecorder(from);
  try {
    const r = await driveTask({
      task,
      world,
      truth,
      sim_start: from,
      sim_end: CUT + 1,
      policy,
      params,
      feedback: "oracle",
      viewOptions: { search: "strict" },
      onWake: surfaces.onWake,
    });
    const agentLines = (r.events as LedgerEvent[])
      .filter((e) => e.type !== "outcome" && e.t <= CUT)
      .map((e) => JSON.stringify(e));
    return { wakes: surfaces.wakes, agentLines, feedbackItems: surfaces.feedbackItems };
  } finally {
    world.close();
    truth.close();
  }
}

/** the deadlines each guard poll up to T installs (one margin plus two polls ahead) */
function guardSchedule(dir: string, taskId: string, params: unknown): string[] {
  const h = toolHarness(taskId, dir, START, { start: START, end: END, params });
  const out: string[] = [];
  try {
    for (let t = START; t <= CUT; t += DEADLINE_GUARD_POLL_MS) {
      const view = h.world.at(() => t);
      const ds = h.run.deadlines(view, t + DEADLINE_GUARD_MARGIN_MS + 2 * DEADLINE_GUARD_POLL_MS);
      if (ds.length) out.push(`${new Date(t).toISOString()} ${ds.map((d) => new Date(d).toISOString()).join(",")}`);
    }
    return out;
  } finally {
    void h.run.dispose();
    h.close();
  }
}

/** oracle feedback items released by T per case (so the feedback comparison is not vacuous) */
const released = new Map<string, number>();

describe("different futures: instructions, tool definitions, wakes, recaps, feedback, guard wakes ≤ T", () => {
  it.each(TASKS)("%s: the instruction and tool definitions at the start are the same", (taskId) => {
    const params = CASES.find((c) => c[0] === taskId)?.[2];
    const a = openedSurface(worldA, taskId, params);
    expect(a.length).toBeGreaterThan(200);
    expect(openedSurface(worldB, taskId, params)).toBe(a);
  });

  it.each(TASKS)("%s: the deadline guard installs the same wakes up to T", (taskId) => {
    const params = CASES.find((c) => c[0] === taskId)?.[2];
    expect(guardSchedule(worldB, taskId, params)).toEqual(guardSchedule(worldA, taskId, params));
  });

  it.each(CASES)(
    "%s / %s: every tool result and every wake's state, observations, note, self labels and feedback",
    async (taskId, policyName, params, from) => {
      const a = await drive(worldA, taskId, policyName, params, from ?? START);
      const b = await drive(worldB, taskId, policyName, params, from ?? START);
      expect(a.wakes.length, "the policy wakes before T").toBeGreaterThan(1);
      released.set(`${taskId}/${policyName}`, a.feedbackItems);
      for (let i = 0; i < Math.max(a.wakes.length, b.wakes.length); i++)
        expect(b.wakes[i], `${taskId} wake ${i}`).toBe(a.wakes[i]);
      for (let i = 0; i < Math.max(a.agentLines.length, b.agentLines.length); i++)
        expect(b.agentLines[i], `${taskId} ledger line ${i}`).toBe(a.agentLines[i]);
    },
    600_000,
  );

  it("oracle feedback was released before T in several tasks (the comparison above is not vacuous)", () => {
    const withFeedback = [...released].filter(([, n]) => n > 0).map(([k]) => k);
    expect(withFeedback.length, JSON.stringify([...released])).toBeGreaterThanOrEqual(3);
  });
});
