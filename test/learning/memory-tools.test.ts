/**
 * The harness's one memory tool set (`agent.memory_tools`): memory_append / memory_read with per-item
 * notes, per-actor memories and immutable past-day snapshots (generalized from open-forecast's tools).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS, utcDay } from "../../src/common/time.js";
import { MemoryStore } from "../../src/learning/memory-store.js";
import { memoryTools, NOTE_MAX_CHARS } from "../../src/learning/memory-tools.js";

const D0 = utcDay("2026-03-01");

function harness(file: string | null = null) {
  const store = new MemoryStore(file);
  const tools = new Map(memoryTools(store).map((t) => [t.name, t]));
  let now = D0 + HOUR_MS;
  const call = (name: string, args: unknown, actor = "agent") =>
    tools.get(name)!.invoke(args, { now: () => now, actor });
  const setNow = (t: number) => {
    now = t;
  };
  return { store, call, setNow };
}

describe("memory tools", () => {
  it("offers memory_read and memory_append, free meta tools", () => {
    const tools = memoryTools(new MemoryStore());
    expect(tools.map((t) => [t.name, t.kind])).toEqual([
      ["memory_read", "meta"],
      ["memory_append", "meta"],
    ]);
  });

  it("appends general and per-item notes; past days are read-only snapshots; writes change only today", async () => {
    const h = harness();
    expect(await h.call("memory_append", { note: "crowd is often right" })).toEqual({
      ok: true,
      value: { saved: true, notes_in_memory: 1 },
    });
    expect(await h.call("memory_append", { note: "leaning No", item: "q1" })).toMatchObject({ ok: true });
    expect(await h.call("memory_append", { note: "x".repeat(NOTE_MAX_CHARS + 1) })).toMatchObject({ ok: false });
    expect(await h.call("memory_append", { note: "" })).toMatchObject({ ok: false });
    h.setNow(D0 + DAY_MS + HOUR_MS);
    await h.call("memory_append", { note: "now leaning Yes", item: "q1" });
    expect(await h.call("memory_read", { date: "2026-03-01" })).toEqual({
      ok: true,
      value: {
        as_of: "end of 2026-03-01",
        general: { notes: [{ at: "2026-03-01T01:00:00.000Z", note: "crowd is often right" }], older_not_shown: 0 },
        items: { q1: { notes: 1, latest: { at: "2026-03-01T01:00:00.000Z", note: "leaning No" } } },
        items_not_shown: 0,
      },
    });
    expect(await h.call("memory_read", { item: "q1" })).toEqual({
      ok: true,
      value: {
        as_of: "2026-03-02T01:00:00.000Z",
        item: "q1",
        notes: [
          { at: "2026-03-01T01:00:00.000Z", note: "leaning No" },
          { at: "2026-03-02T01:00:00.000Z", note: "now leaning Yes" },
        ],
        older_not_shown: 0,
      },
    });
    expect(await h.call("memory_read", { date: "2026-03-02" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("no snapshot for 2026-03-02"),
    });
    h.setNow(D0 + 4 * DAY_MS);
    // day 0's snapshot is unchanged by later notes; day 1's holds the later one
    expect(await h.call("memory_read", { date: "2026-03-01", item: "q1" })).toMatchObject({
      value: { notes: [{ note: "leaning No" }] },
    });
    expect(await h.call("memory_read", { date: "2026-03-02", item: "q1" })).toMatchObject({
      value: { notes: [{ note: "leaning No" }, { note: "now leaning Yes" }] },
    });
  });

  it("each actor reads only its own memory; the log is mirrored to the run's memory file", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "relive-mem-")), "notes.jsonl");
    const h = harness(file);
    await h.call("memory_append", { note: "mine" }, "a1");
    await h.call("memory_append", { note: "theirs", item: "m" }, "a2");
    expect(await h.call("memory_read", {}, "a1")).toMatchObject({
      value: { general: { notes: [{ note: "mine" }] }, items: {} },
    });
    expect(await h.call("memory_read", {}, "a2")).toMatchObject({
      value: { general: { notes: [] }, items: { m: { notes: 1 } } },
    });
    h.store.close();
    expect(readFileSync(file, "utf8")).toBe(
      '{"t":"2026-03-01T01:00:00.000Z","actor":"a1","item":null,"note":"mine"}\n' +
        '{"t":"2026-03-01T01:00:00.000Z","actor":"a2","item":"m","note":"theirs"}\n',
    );
  });

  it("lists the newest notes and counts the rest", async () => {
    const h = harness();
    for (let i = 0; i < 45; i++) await h.call("memory_append", { note: `n${i}` });
    const r = (await h.call("memory_read", {})) as {
      ok: true;
      value: { general: { notes: { note: string }[]; older_not_shown: number } };
    };
    expect(r.value.general.notes).toHaveLength(40);
    expect(r.value.general.notes[0]!.note).toBe("n5");
    expect(r.value.general.older_not_shown).toBe(5);
  });
});
