import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { WorldStore } from "../../src/world/world-store.js";

function build(events: boolean) {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-evstream-")), "w");
  const b = WorldBuilder.create(
    dir,
    { name: "h", window: { start: 0, end: 1000 }, builder: "t", builder_version: "1" },
    { newsEmbedder: null },
  );
  b.insert("broker_event", [{ id: "b1", kind: "note", t: 5, payload: { a: 1 }, visible_at: 5 }]);
  b.insert("company", [{ cik: "1", ticker: "T", name: "N", visible_at: 0 }]);
  if (events) b.insert("event", [{ id: "e1", kind: "alert", t: 7, payload: { sev: "x" }, visible_at: 9 }]);
  return { dir, manifest: b.finish() };
}

describe("the event stream kind", () => {
  it("leaves the manifest hash of a world without events as it was before the kind existed", () => {
    // the value computed by the builder before `event` was added (same rows)
    const { manifest } = build(false);
    expect(manifest.hash).toBe("b56b0ff2ecd9159587c77d117d6077362fa15b48fca9035594df22a25f000bb6");
    expect(manifest.streams.event).toBe(0);
  });

  it("enters the hash when present, and is read through the as-of view only once visible", () => {
    const { dir, manifest } = build(true);
    expect(manifest.hash).not.toBe("b56b0ff2ecd9159587c77d117d6077362fa15b48fca9035594df22a25f000bb6");
    expect(manifest.streams.event).toBe(1);
    const w = WorldStore.open(dir);
    expect(w.at(() => 8).events.list()).toEqual({ events: [], total: 0 });
    expect(() => w.at(() => 8).events.get("e1")).toThrow('unknown event id: "e1"');
    expect(w.at(() => 9).events.get("e1")).toEqual({
      id: "e1",
      kind: "alert",
      t: 7,
      payload: { sev: "x" },
      visible_at: 9,
    });
    expect(w.at(() => 9).events.list({ since: 8 })).toEqual({ events: [], total: 0 });
    expect(w.at(() => 9).events.list({ since: 7, until: 7, kind: "alert" }).total).toBe(1);
    expect(w.at(() => 9).events.arrivals(8, 100)).toEqual([{ id: "e1", kind: "alert", t: 7, visible_at: 9 }]);
    expect(w.at(() => 9).events.arrivals(9, 100)).toEqual([]);
    w.close();
  });
});
