import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";

const tmp = () => mkdtempSync(join(tmpdir(), "relive-fsync-"));
const note = (t: number) => ({ type: "note", t, kind: "x", message: `line ${t}` }) as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** waits (no time limit but the test's) until every fsync the writer started has completed */
async function settled(w: LedgerWriter): Promise<{ requested: number; completed: number }> {
  for (;;) {
    const c = w.syncs;
    if (c.requested === c.completed) return c;
    await sleep(5);
  }
}

describe("ledger fsync at settlement points runs beside the run", () => {
  it("sync() starts an fsync in the background that completes without the caller waiting for its event loop", async () => {
    const w = LedgerWriter.create(join(tmp(), "ledger.jsonl"));
    w.append(note(1));
    expect(w.syncs).toEqual({ requested: 0, completed: 0 });
    w.sync();
    expect(w.syncs.requested).toBe(1);
    expect(await settled(w)).toEqual({ requested: 1, completed: 1 });
    w.append(note(2));
    w.sync();
    expect(await settled(w)).toEqual({ requested: 2, completed: 2 });
    w.close();
  }, 120_000);

  it("keeps at most one fsync in flight per ledger: requests made meanwhile are dropped, never queued", async () => {
    const w = LedgerWriter.create(join(tmp(), "ledger.jsonl"));
    for (let i = 0; i < 50; i++) {
      w.append(note(i));
      w.sync();
      const c = w.syncs;
      expect(c.requested - c.completed).toBeLessThanOrEqual(1);
    }
    const c = await settled(w);
    expect(c.requested).toBeGreaterThanOrEqual(1);
    expect(c.requested).toBeLessThanOrEqual(50);
    w.close();
  }, 120_000);

  it("a re-run regenerating its recorded prefix starts no fsync", () => {
    const path = join(tmp(), "ledger.jsonl");
    const first = LedgerWriter.create(path);
    first.append(note(1));
    first.close();
    const w = LedgerWriter.verifying(path, [JSON.stringify({ seq: 0, ...note(1) })]);
    w.sync();
    expect(w.syncs).toEqual({ requested: 0, completed: 0 });
    w.close();
  });

  it("a failed background fsync is reported at the next sync, naming the ledger", async () => {
    const dir = tmp();
    const path = join(dir, "ledger.jsonl");
    const w = LedgerWriter.create(path);
    w.append(note(1));
    rmSync(dir, { recursive: true, force: true }); // the worker cannot open the file to fsync it
    let error: unknown = null;
    for (let i = 0; i < 10_000 && error === null; i++) {
      try {
        w.sync();
        await sleep(5);
      } catch (e) {
        error = e;
      }
    }
    expect(String(error)).toContain(`${path}: a background fsync failed`);
  }, 120_000);
});
