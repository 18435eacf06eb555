import { describe, expect, it } from "vitest";
import { toolHarness } from "../../support/leakage.js";
import { eventWorld, T, TINY_TASK, taskFile } from "./tiny-world.js";

// deadlines / state / observations at a frozen now, from what is visible then only.
describe("event-response run hooks", () => {
  const dir = eventWorld([
    { id: "a1", kind: "alert", t: T("01:00"), payload: { severity: "critical" } },
    { id: "p1", kind: "page", t: T("01:05"), payload: {} },
    { id: "d1", kind: "deploy", t: T("01:06"), payload: {} },
    { id: "p2", kind: "page", t: T("01:20"), payload: {} },
  ]);
  const params = { task_file: taskFile(TINY_TASK) };
  const at = (now: number) => toolHarness("event-response", dir, now, { start: T("00:00"), end: T("06:00"), params });

  it("lists open events and their deadlines; a response closes one; the future is absent", async () => {
    const h = at(T("01:10"));
    try {
      expect(
        h.run.deadlines(
          h.world.at(() => T("01:10")),
          T("06:00"),
        ),
      ).toEqual([T("01:15"), T("01:30")]);
      expect(
        h.run.deadlines(
          h.world.at(() => T("01:10")),
          T("01:20"),
        ),
      ).toEqual([T("01:15")]);
      expect(h.run.state()).toEqual([
        {
          title: "events awaiting a response",
          lines: [
            "p1 (page at 2026-03-02T01:05:00.000Z): due 2026-03-02T01:15:00.000Z",
            "a1 (alert at 2026-03-02T01:00:00.000Z): due 2026-03-02T01:30:00.000Z",
          ],
        },
      ]);
      expect((await h.runtime.call("agent", "respond", { event_id: "p1", action: "ack" })).ok).toBe(true);
      expect(h.run.state()[0]!.lines).toEqual(["a1 (alert at 2026-03-02T01:00:00.000Z): due 2026-03-02T01:30:00.000Z"]);
      expect(h.run.observations(T("01:00"), T("01:10"))).toEqual([
        { t: T("01:05"), kind: "page", id: "p1", summary: "page at 2026-03-02T01:05:00.000Z (needs a response)" },
        { t: T("01:06"), kind: "deploy", id: "d1", summary: "deploy at 2026-03-02T01:06:00.000Z" },
      ]);
      // asking beyond now never reaches p2 (visible at 01:20)
      expect(h.run.observations(T("01:00"), T("02:00")).map((o) => o.id)).toEqual(["p1", "d1"]);
      const inst = h.run.instruction();
      expect(inst).toContain("`page`: respond within 10 minutes of the event's time (any action)");
      expect(inst).toContain(
        "`alert`: respond within 30 minutes of the event's time; action by payload field `severity`: severity = critical → `escalate`, severity = warning → `ack`, otherwise any action",
      );
    } finally {
      await h.run.dispose();
      h.close();
    }
  });
});
