import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotVisibleError } from "../../../src/world/as-of-view.js";
import type { EventRow } from "../../../src/world/types.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { checkLeakage, type Probe, timeArg } from "../../support/leakage.js";
import { EXAMPLE_TASK, importExample } from "./example-world.js";
import { eventWorld, T } from "./tiny-world.js";

const KINDS = ["alert", "page", "deploy"];

// Random event logs whose visible_at lags their time by 0–90 min: at random instants, list and get
// never reveal (return, count, or distinguish by error) an event with visible_at > now.
describe("events view: as-of at random times", () => {
  const rng = fc.sample(
    fc.array(
      fc.record({
        t: fc.integer({ min: T("00:00"), max: T("05:59") }),
        lag: fc.integer({ min: 0, max: 90 * 60_000 }),
        kind: fc.constantFrom(...KINDS),
      }),
      { minLength: 60, maxLength: 60 },
    ),
    { numRuns: 1, seed: 7 },
  )[0]!;
  const events: EventRow[] = rng.map((e, i) => ({
    id: `e${String(i).padStart(3, "0")}`,
    kind: e.kind,
    t: e.t,
    payload: { n: i },
    visible_at: e.t + e.lag,
  }));
  let world: WorldStore;
  beforeAll(() => {
    world = WorldStore.open(eventWorld(events));
  });
  afterAll(() => world.close());

  it("list pages, totals and get match the events visible at now (≥ 2,000 probes)", () => {
    let probes = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: T("00:00"), max: T("07:30") }),
        fc.option(fc.integer({ min: T("00:00"), max: T("06:00") }), { nil: undefined }),
        fc.option(fc.integer({ min: T("00:00"), max: T("06:00") }), { nil: undefined }),
        fc.option(fc.constantFrom(...KINDS), { nil: undefined }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: events.length - 1 }),
        (now, since, until, kind, offset, pick) => {
          const view = world.at(() => now);
          const match = events
            .filter(
              (e) =>
                e.visible_at <= now &&
                (since === undefined || e.t >= since) &&
                (until === undefined || e.t <= until) &&
                (kind === undefined || e.kind === kind),
            )
            .sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
          const page = view.events.list({ since, until, kind, offset, limit: 10 });
          expect(page.total).toBe(match.length);
          expect(page.events).toEqual(match.slice(offset, offset + 10));
          for (const e of page.events) expect(e.visible_at).toBeLessThanOrEqual(now);
          const e = events[pick]!;
          if (e.visible_at <= now) expect(view.events.get(e.id)).toEqual(e);
          else expect(() => view.events.get(e.id)).toThrow(new NotVisibleError("event", e.id).message);
          expect(view.events.arrivals(T("00:00") - 1, now).map((a) => a.id)).toEqual(
            events
              .filter((x) => x.visible_at <= now)
              .sort((a, b) => a.visible_at - b.visible_at || (a.id < b.id ? -1 : 1))
              .map((x) => x.id),
          );
          probes++;
        },
      ),
      { numRuns: 2000, seed: 11 },
    );
    expect(probes).toBe(2000);
  });
});

// The agent's tools on the example log at random cuts: byte-identical to a copy without the rows
// visible after the cut (results, rejection texts, prices, the whole ledger).
describe("event-response tools: no output depends on the future", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await importExample();
  });

  it("list_events / get_event / respond / response_rules at 6 cuts (≥ 600 probes)", async () => {
    const lo = Date.parse("2026-03-02T00:00:00Z");
    const hi = Date.parse("2026-03-05T00:00:00Z");
    const ids = ["A-201", "P-401", "D-103", "P-409", "A-212", "I-304", "nope"];
    const calls: fc.Arbitrary<Probe> = fc.oneof(
      fc
        .record({
          since: fc.option(timeArg(lo, hi), { nil: undefined }),
          until: fc.option(timeArg(lo, hi), { nil: undefined }),
          kind: fc.option(fc.constantFrom("alert", "page", "deploy", "info"), { nil: undefined }),
          offset: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
        })
        .map((a): Probe => ["list_events", JSON.parse(JSON.stringify(a))]),
      fc.constantFrom(...ids).map((id): Probe => ["get_event", { id }]),
      fc
        .record({ event_id: fc.constantFrom(...ids), action: fc.constantFrom("ack", "escalate") })
        .map((a): Probe => ["respond", a]),
      fc.constant<Probe>(["response_rules", {}]),
    );
    const cuts = [0, 1, 2, 3, 4, 5].map((i) => lo + Math.round(((hi - lo) * (2 * i + 1)) / 12) + i * 37_003);
    const probes = await checkLeakage({
      taskId: "event-response",
      worldDir: dir,
      calls,
      cuts,
      callsPerCut: 100,
      harness: { start: lo, end: hi, params: { task_file: EXAMPLE_TASK } },
    });
    expect(probes).toBe(600);
  }, 900_000);
});
