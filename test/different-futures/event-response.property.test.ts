/**
 * Different futures (DESIGN invariant 2) for event-response, whose worlds are imported event logs (no
 * synthetic future): two logs identical in every event visible at or before a cut T and different
 * after it (events replaced, added and dropped, ids reused with other content, events timed before T
 * but visible only after it) must give byte-identical agent-facing outputs at every time ≤ T:
 * - random `list_events` / `get_event` / `respond` / `response_rules` calls at times ≤ T (results,
 *   rejection texts, the ledger);
 * - the instruction and tool definitions;
 * - the honest `poll-15m` policy driven to T under `feedback: oracle`: every tool result, and at each
 *   wake the state block, the observations since the last wake, the wake note and `get_feedback`;
 * - the deadline guard: the deadlines each of its polls up to T would install.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { oracleFeedbackOf } from "../../src/run/feedback-tool.js";
import { getTask } from "../../src/tasks/registry.js";
import { releasedAtOf } from "../../src/tasks/task.js";
import { DEADLINE_GUARD_MARGIN_MS, DEADLINE_GUARD_POLL_MS } from "../../src/triggers/deadline-guard.js";
import { TruthStore } from "../../src/world/truth-store.js";
import type { EventRow } from "../../src/world/types.js";
import { WorldStore } from "../../src/world/world-store.js";
import { checkDifferentFutures, probeTimes } from "../support/different-futures.js";
import { type Probe, timeArg, toolHarness } from "../support/leakage.js";
import { driveTask } from "../support/task-driver.js";
import { wakeSurfaceRecorder } from "../support/wake-surfaces.js";
import { eventWorld, T, TINY_TASK, taskFile } from "../tasks/event-response/tiny-world.js";

const START = T("00:00");
const END = T("06:00");
const CUT = T("03:17") + 13_000;
const KINDS = ["alert", "page", "deploy"];
const PARAMS = { task_file: taskFile(TINY_TASK) };

const eventArb = (lo: number, hi: number) =>
  fc.record({
    t: fc.integer({ min: lo, max: hi }),
    lag: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 45 * 60_000 })),
    kind: fc.constantFrom(...KINDS),
    severity: fc.constantFrom("critical", "warning", "info"),
    n: fc.integer({ min: 0, max: 999 }),
  });

type Draft = { t: number; lag: number; kind: string; severity: string; n: number };
const row = (id: string, d: Draft): EventRow => ({
  id,
  kind: d.kind,
  t: d.t,
  payload: { severity: d.severity, n: d.n, text: `${d.kind} ${d.severity} #${d.n}` },
  visible_at: d.t + d.lag,
});

const [pastA, futureA, futureB] = fc.sample(
  fc.tuple(
    fc.array(eventArb(START, END - 1), { minLength: 70, maxLength: 70 }),
    fc.array(eventArb(START, END - 1), { minLength: 40, maxLength: 40 }),
    fc.array(eventArb(START, END - 1), { minLength: 55, maxLength: 55 }),
  ),
  { numRuns: 1, seed: 23 },
)[0]!;

// log A: its own events; log B: A's events visible by the cut, then a different future. Future
// events may be timed before the cut (visible late). Ids of both futures overlap (`f-000`..), so the
// same id names other content in the two worlds.
const A: EventRow[] = [...pastA.map((d, i) => row(`e-${i}`, d)), ...futureA.map((d, i) => row(`f-${i}`, d))];
const visibleByCut = A.filter((e) => e.visible_at <= CUT);
const later = (d: Draft) => (d.t + d.lag > CUT ? d : { ...d, lag: CUT + 1 + (d.n % 3_000_000) - d.t });
const taken = new Set(visibleByCut.map((e) => e.id));
const B: EventRow[] = [
  ...visibleByCut,
  ...futureB.map((d, i) => row(taken.has(`f-${i}`) ? `g-${i}` : `f-${i}`, later(d))),
];
const worldA = eventWorld(A.filter((e) => e.visible_at < END + 3_600_000));
const worldB = eventWorld(B.filter((e) => e.visible_at < END + 3_600_000));

const IDS = [...new Set([...A, ...B].map((e) => e.id)), "nope"];
const opt = <V>(a: fc.Arbitrary<V>) => fc.option(a, { nil: undefined });
const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const CALLS: fc.Arbitrary<Probe> = fc.oneof(
  {
    arbitrary: fc
      .record({
        since: opt(timeArg(START - 3_600_000, END)),
        until: opt(timeArg(START, END + 3_600_000)),
        kind: opt(fc.constantFrom(...KINDS, "info")),
        offset: opt(fc.integer({ min: 0, max: 60 })),
      })
      .map((a): Probe => ["list_events", clean(a)]),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(...IDS).map((id): Probe => ["get_event", { id }]), weight: 3 },
  fc
    .record({ event_id: fc.constantFrom(...IDS), action: fc.constantFrom("ack", "escalate") })
    .map((a): Probe => ["respond", a]),
  fc.constant<Probe>(["response_rules", {}]),
);

function openedSurface(dir: string): string {
  const h = toolHarness("event-response", dir, START, { start: START, end: END, params: PARAMS });
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

async function drive(dir: string) {
  const world = WorldStore.open(dir);
  const truth = TruthStore.open(dir);
  const task = getTask("event-response");
  const policy = task.referencePolicies.find((p) => p.name === "poll-15m");
  if (!policy) throw new Error("event-response has no poll-15m policy");
  const surfaces = wakeSurfaceRecorder(START);
  try {
    const r = await driveTask({
      task,
      world,
      truth,
      sim_start: START,
      sim_end: CUT + 1,
      policy,
      params: PARAMS,
      feedback: "oracle",
      onWake: surfaces.onWake,
    });
    // outcomes are the scorer's (an event visible only after its deadline settles a miss at the
    // deadline, before T, and is released to feedback only when visible): left out, with the ledger
    // sequence numbers they shift; everything the agent did and was told must be the same
    const agentLines = (r.events as LedgerEvent[])
      .filter((e) => e.type !== "outcome" && e.t <= CUT)
      .map(({ seq: _seq, ...e }) => JSON.stringify(e));
    return { wakes: surfaces.wakes, agentLines, feedbackItems: surfaces.feedbackItems };
  } finally {
    world.close();
    truth.close();
  }
}

function guardSchedule(dir: string): string[] {
  const h = toolHarness("event-response", dir, START, { start: START, end: END, params: PARAMS });
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

describe("different futures: event-response over two event logs that agree up to T", () => {
  it("the logs share every event visible by T and differ after it", () => {
    const afterCut = (log: EventRow[]) => JSON.stringify(log.filter((e) => e.visible_at > CUT));
    expect(afterCut(B)).not.toBe(afterCut(A));
    for (const e of B) if (!visibleByCut.includes(e)) expect(e.visible_at).toBeGreaterThan(CUT);
    // the futures reuse ids with other content, and hold events timed before T but visible after it
    const shared = A.filter((e) => e.visible_at > CUT && B.some((x) => x.id === e.id && x.t !== e.t));
    expect(shared.length).toBeGreaterThan(5);
    expect(B.filter((e) => e.t <= CUT && e.visible_at > CUT).length).toBeGreaterThan(3);
  });

  it("random tool calls at times ≤ T: byte-identical results, rejections and ledgers", async () => {
    const n = await checkDifferentFutures({
      taskId: "event-response",
      worldA,
      worldB,
      cut: CUT,
      times: probeTimes(CUT, 3 * 3_600_000, 4, 5),
      calls: CALLS,
      callsPerTime: 150,
      harness: { start: START, end: END, params: PARAMS },
    });
    expect(n.probes).toBe(600);
    expect(n.ok).toBeGreaterThan(200);
  }, 600_000);

  it("the instruction and tool definitions are the same", () => {
    const a = openedSurface(worldA);
    expect(a.length).toBeGreaterThan(200);
    expect(openedSurface(worldB)).toBe(a);
  });

  it("the deadline guard installs the same wakes up to T", () => {
    const a = guardSchedule(worldA);
    expect(a.length).toBeGreaterThan(3);
    expect(guardSchedule(worldB)).toEqual(a);
  });

  it("poll-15m to T under oracle feedback: every tool result, state, observations, wake note and feedback", async () => {
    const a = await drive(worldA);
    const b = await drive(worldB);
    expect(a.wakes.length).toBeGreaterThan(10);
    expect(a.feedbackItems, "oracle feedback released before T (not vacuous)").toBeGreaterThan(3);
    for (let i = 0; i < Math.max(a.wakes.length, b.wakes.length); i++) expect(b.wakes[i], `wake ${i}`).toBe(a.wakes[i]);
    for (let i = 0; i < Math.max(a.agentLines.length, b.agentLines.length); i++)
      expect(b.agentLines[i], `ledger line ${i}`).toBe(a.agentLines[i]);
  }, 600_000);

  it("oracle feedback names an event only once it is visible (release time ≥ the event's visible_at)", async () => {
    const world = WorldStore.open(worldB);
    const truth = TruthStore.open(worldB);
    try {
      const task = getTask("event-response");
      const policy = task.referencePolicies.find((p) => p.name === "poll-15m")!;
      const r = await driveTask({
        task,
        world,
        truth,
        sim_start: START,
        sim_end: END,
        policy,
        params: PARAMS,
        feedback: "oracle",
      });
      const visibleAt = new Map(B.map((e) => [e.id, e.visible_at]));
      const early: string[] = [];
      let late = 0;
      for (const o of r.outcomes) {
        const v = visibleAt.get((o.detail as { event_id: string }).event_id)!;
        if (v > o.t) late++;
        if (releasedAtOf(o) < v) early.push(`${o.key}: released ${releasedAtOf(o)}, visible ${v}`);
        if (
          v > o.t &&
          oracleFeedbackOf(r.events, () => Math.min(v - 1, END))
            .settled(null)
            .some((x) => x.key === o.key)
        )
          early.push(`${o.key}: get_feedback shows it before the event is visible`);
      }
      expect(early).toEqual([]);
      expect(late, "events visible only after their deadline exist (not vacuous)").toBeGreaterThan(3);
    } finally {
      world.close();
      truth.close();
    }
  }, 600_000);
});
