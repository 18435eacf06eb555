import { join } from "node:path";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { CACHE_DIR } from "../../run/helpers.js";

/** The broker-ops tests share one seed-1 synthetic world of the `synth-5d` window, built once per test run. */
export const START = Date.parse("2026-03-01T00:00:00Z");
export const END = Date.parse("2026-03-06T00:00:00Z");
export const T = (iso: string) => Date.parse(iso);

/** Run options' cache dir: the runner finds the synthetic world of a window under `<cache>/synth` (the run's shared cache). */
export const BROKER_CACHE = CACHE_DIR;

/** The world directory (built on first use, once per test run). */
export function brokerWorldDir(): string {
  return ensureSynthWorld(join(BROKER_CACHE, "synth"), { seed: 1, start: START, end: END });
}

/**
 * Handles on the synthetic PM book by position, since ids are opaque (synth ids.ts): `be(n)` is the
 * n-th PM-book event (1-based, in time order, the order they happen in at one instant), `mc(n)` the
 * call id of the n-th margin call; of the synth-5d world unless another world directory is given.
 */
export function bookIds(dir: string = brokerWorldDir()): { be: (n: number) => string; mc: (n: number) => string } {
  const w = WorldStore.open(dir);
  try {
    const events = (
      w.db.prepare("SELECT id FROM broker_event WHERE id LIKE 'be-%' ORDER BY t, rowid").all() as { id: string }[]
    ).map((r) => r.id);
    const calls = (
      w.db
        .prepare(
          "SELECT json_extract(payload, '$.call_id') AS id FROM broker_event WHERE kind = 'margin_call' ORDER BY t, rowid",
        )
        .all() as { id: string }[]
    ).map((r) => r.id);
    const at = (xs: string[], what: string) => (n: number) => {
      const x = xs[n - 1];
      if (x === undefined) throw new Error(`the synthetic book has no ${what} #${n}`);
      return x;
    };
    return { be: at(events, "event"), mc: at(calls, "margin call") };
  } finally {
    w.close();
  }
}
