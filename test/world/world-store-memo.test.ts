import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, emptyRows, workDir } from "./world-fixtures.js";

const work = workDir("relive-world-memo-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function candleWorld(): string {
  const dir = join(work, "w");
  const rows = emptyRows();
  for (let i = 0; i < 10; i++)
    rows.candle.push({
      venue: "v1",
      symbol: "BTC",
      interval_ms: 60,
      open_time: i * 60,
      o: 100 + i,
      h: 102 + i,
      l: 98 + i,
      c: 101 + i,
      v: 1,
      visible_at: (i + 1) * 60,
    });
  buildWorld(dir, rows);
  return dir;
}

describe("WorldStore.memoAll (the view's candle and post-list statements)", () => {
  const dir = candleWorld();

  it("answers a repeated query from memory with copies, and keeps the as-of bound of each query", () => {
    const world = WorldStore.open(dir);
    const fresh = WorldStore.open(dir);
    try {
      let t = 300;
      const view = world.at(() => t);
      const first = view.exchanges.candles("v1", "BTC", 0, 1000);
      expect(first.map((r) => r.open_time)).toEqual([0, 60, 120, 180, 240]);
      // a caller that changes what it got changes nothing another run reads
      first[0]!.c = -1;
      first.pop();
      const again = world.at(() => 300).exchanges.candles("v1", "BTC", 0, 1000);
      expect(world.memoCounts).toEqual({ hits: 1, misses: 1 });
      expect(again).toEqual(fresh.at(() => 300).exchanges.candles("v1", "BTC", 0, 1000));
      expect(again[0]!.c).toBe(101);
      // a later clock is another query: never the earlier answer
      t = 120;
      expect(view.exchanges.candles("v1", "BTC", 0, 1000).map((r) => r.open_time)).toEqual([0, 60]);
      expect(world.memoCounts.misses).toBe(2);
    } finally {
      world.close();
      fresh.close();
    }
  });
});
