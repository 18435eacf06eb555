import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentEventId, importEventsJsonl, parseEventTime, readEventMapping } from "../../src/ingest/events-jsonl.js";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { WorldStore } from "../../src/world/world-store.js";

const tmp = () => mkdtempSync(join(tmpdir(), "relive-evimp-"));
const write = (dir: string, name: string, lines: string[]) => {
  const f = join(dir, name);
  writeFileSync(f, `${lines.join("\n")}\n`);
  return f;
};

describe("event times", () => {
  it("reads ISO (a missing zone is UTC), epoch seconds below 1e11 and epoch ms from it on", () => {
    const t = Date.parse("2026-03-02T10:00:00Z");
    expect(parseEventTime("2026-03-02T10:00:00Z")).toBe(t);
    expect(parseEventTime("2026-03-02T10:00:00")).toBe(t);
    expect(parseEventTime("2026-03-02 10:00")).toBe(t);
    expect(parseEventTime("2026-03-02T12:00:00+02:00")).toBe(t);
    expect(parseEventTime(t / 1000)).toBe(t);
    expect(parseEventTime(String(t / 1000))).toBe(t);
    expect(parseEventTime(t / 1000 + 0.25)).toBe(t + 250);
    expect(parseEventTime(t)).toBe(t);
    expect(parseEventTime(String(t))).toBe(t);
    expect(parseEventTime(99_999_999_999)).toBe(99_999_999_999_000);
    expect(parseEventTime(100_000_000_000)).toBe(100_000_000_000);
    for (const bad of ["yesterday", "", "2026-13-45T00:00:00Z", true, {}, Number.NaN, t + 0.5])
      expect(parseEventTime(bad)).toBeNull();
  });
});

describe("importEventsJsonl", () => {
  it("imports with a mapping, keeps every other field as the payload, lists rejections with file:line", async () => {
    const dir = tmp();
    const f = write(dir, "log.jsonl", [
      JSON.stringify({ ts: "2026-03-02T10:00:00Z", type: "alert", id: "A1", sev: "critical", n: 3 }),
      "{oops",
      JSON.stringify({ ts: "soon", type: "alert", id: "A2" }),
      JSON.stringify({ type: "alert", id: "A3" }),
      JSON.stringify({ ts: 1772445600, type: 7, id: "A4" }),
      JSON.stringify({ ts: 1772445600, type: "page" }),
      "",
      JSON.stringify({ ts: 1772445600000, type: "page", id: 42, nested: { a: [1, 2] } }),
      JSON.stringify({ ts: "2026-03-02T11:00:00", type: "deploy", id: "A1" }),
      "[1, 2]",
    ]);
    const r = await importEventsJsonl([f], join(dir, "w"), {
      name: "t",
      mapping: { time_field: "ts", kind_field: "type", id_field: "id" },
    });
    expect(r.imported).toBe(2);
    expect(r.read).toBe(9);
    expect(r.rejected).toEqual([
      { file: f, line: 2, reason: expect.stringMatching(/^invalid JSON: /) },
      {
        file: f,
        line: 3,
        reason: 'time field "ts": cannot read "soon" as ISO-8601 or epoch seconds/milliseconds',
      },
      { file: f, line: 4, reason: 'no time field "ts"' },
      { file: f, line: 5, reason: 'kind field "type": not a non-empty string' },
      { file: f, line: 6, reason: 'no id field "id"' },
      { file: f, line: 9, reason: 'duplicate id "A1" (the first is kept)' },
      { file: f, line: 10, reason: "not a JSON object" },
    ]);
    expect(r.counts).toEqual({ events: 2, duplicates: 1, kinds: 2, "kind:alert": 1, "kind:page": 1 });
    const w = WorldStore.open(join(dir, "w"));
    expect(w.manifest.streams.event).toBe(2);
    // whole UTC days around the events (here one event day, 2026-03-02)
    expect(w.manifest.window).toEqual({ start: 1772409600000, end: 1772409600000 + 86_400_000 });
    const v = w.at(() => 1772445600000);
    expect(v.events.list().events).toEqual([
      { id: "42", kind: "page", t: 1772445600000, payload: { nested: { a: [1, 2] } }, visible_at: 1772445600000 },
      { id: "A1", kind: "alert", t: 1772445600000, payload: { sev: "critical", n: 3 }, visible_at: 1772445600000 },
    ]);
    w.close();
  });

  it("without an id field: opaque ids from the row's content (no counter), identical rows are duplicates", async () => {
    const dir = tmp();
    const a = { time: "2026-03-02T10:00:00Z", kind: "x", msg: "hello" };
    const b = { time: "2026-03-02T09:00:00Z", kind: "x", msg: "world" };
    const f1 = write(dir, "one.jsonl", [JSON.stringify(a), JSON.stringify(b), JSON.stringify(a)]);
    const f2 = write(dir, "two.jsonl", [JSON.stringify(b), JSON.stringify({ msg: "hello", kind: "x", time: a.time })]);
    const mapping = { time_field: "time", kind_field: "kind" };
    const r1 = await importEventsJsonl([f1], join(dir, "w1"), { name: "t", mapping });
    const r2 = await importEventsJsonl([f2], join(dir, "w2"), { name: "t", mapping });
    expect(r2.rejected).toEqual([]);
    expect(r1.rejected.map((x) => [x.line, x.reason])).toEqual([
      [3, "duplicate of an earlier identical row (the first is kept)"],
    ]);
    const ids = (d: string) => {
      const w = WorldStore.open(join(dir, d));
      const out = w
        .at(() => Date.parse("2026-03-03T00:00:00Z"))
        .events.list()
        .events.map((e) => e.id);
      w.close();
      return out;
    };
    // the same rows get the same ids whatever their order, file or key order
    expect(ids("w1")).toEqual(ids("w2"));
    expect(ids("w1")).toEqual([contentEventId(b), contentEventId(a)]);
    expect(contentEventId(a)).toMatch(/^ev-[0-9a-f]{24}$/);
  });

  it("refuses (no world) when nothing was imported", async () => {
    const dir = tmp();
    const f = write(dir, "bad.jsonl", [JSON.stringify({ when: 1, what: "x" })]);
    const err = await importEventsJsonl([f], join(dir, "w"), {
      name: "t",
      mapping: { time_field: "ts", kind_field: "type" },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ImportRefusedError);
    expect((err as ImportRefusedError).rejected).toEqual([{ file: f, line: 1, reason: 'no time field "ts"' }]);
    expect(existsSync(join(dir, "w"))).toBe(false);
  });

  it("reads a YAML or JSON mapping file and names what is wrong", () => {
    const dir = tmp();
    const y = join(dir, "m.yaml");
    writeFileSync(y, "time_field: ts\nkind_field: type\nid_field: id\n");
    expect(readEventMapping(y)).toEqual({ time_field: "ts", kind_field: "type", id_field: "id" });
    const j = join(dir, "m.json");
    writeFileSync(j, JSON.stringify({ time_field: "ts", kind_field: "ts" }));
    expect(() => readEventMapping(j)).toThrow(/must be different fields/);
    writeFileSync(j, JSON.stringify({ time_field: "ts" }));
    expect(() => readEventMapping(j)).toThrow(/kind_field/);
    expect(readFileSync(y, "utf8")).toContain("ts");
  });
});
