/**
 * The different-futures harness (DESIGN invariant 2, quality.md R1): two worlds that are identical up
 * to a cut T and differ after it (for synth: the same seed, and `future: {seed, from: T}` re-drawing
 * everything after T) must give byte-identical agent-visible outputs at every time ≤ T. Unlike the
 * truncated copy of test/support/leakage.ts, this sees ids, counts and parameters that are *derived*
 * from the future (a counter that numbers a post's comments in one block, a question opened a fixed
 * time before its answer is known), because the future itself is different.
 *
 * The same random call sequence is driven through a task's tools (test/support/leakage.ts
 * `toolHarness`) on both worlds at each probe time; results, rejection texts and the ledger must be
 * byte-identical. The one documented exception is search over global BM25 statistics: a tool named
 * in `relaxed` is checked by its own comparison (every returned item visible, k filled alike) and its
 * `result_hash` is left out of the ledger comparison.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { expect } from "vitest";
import { ensureSynthWorld } from "../../src/synth/synth-world.js";
import { type HarnessOptions, type Probe, toolHarness } from "./leakage.js";
import { testSynthCache } from "./shared-synth-cache.js";

/** the comparison of a tool exempted from byte identity (search under global BM25 statistics) */
export type RelaxedCheck = (a: unknown, b: unknown, now: number, label: string) => void;

export interface DifferentFuturesOptions {
  taskId: string;
  /** the ordinary world */
  worldA: string;
  /** the same world with a different future after `cut` */
  worldB: string;
  /** the cut T: probes are made at times ≤ T */
  cut: number;
  /** probe instants (each ≤ cut) */
  times: number[];
  calls: fc.Arbitrary<Probe>;
  callsPerTime: number;
  harness: HarnessOptions;
  relaxed?: Record<string, RelaxedCheck>;
  seed?: number;
}

/** drop `result_hash` from ledger lines of relaxed tools (their results are compared by `relaxed`) */
function comparableLedger(path: string, relaxed: ReadonlySet<string>): string {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const e = JSON.parse(l) as { type?: string; tool?: string; result_hash?: string };
      if (e.type === "tool_call" && e.tool !== undefined && relaxed.has(e.tool)) delete e.result_hash;
      return JSON.stringify(e);
    })
    .join("\n");
}

/**
 * Runs the probes on both worlds and asserts identical outputs; returns the number of probes and how
 * many of them succeeded (so a test can require that its calls reach real rows, not only errors).
 */
export async function checkDifferentFutures(o: DifferentFuturesOptions): Promise<{ probes: number; ok: number }> {
  const relaxed = o.relaxed ?? {};
  const relaxedNames = new Set(Object.keys(relaxed));
  let probes = 0;
  let okCount = 0;
  for (const [i, now] of o.times.entries()) {
    if (now > o.cut) throw new Error(`probe time ${new Date(now).toISOString()} is after the cut`);
    const a = toolHarness(o.taskId, o.worldA, now, o.harness);
    const b = toolHarness(o.taskId, o.worldB, now, o.harness);
    try {
      for (const [tool, args] of fc.sample(o.calls, { numRuns: o.callsPerTime, seed: (o.seed ?? 300) + i })) {
        const ra = await a.runtime.call("agent", tool, args);
        const rb = await b.runtime.call("agent", tool, args);
        const label = `${o.taskId} ${tool} ${JSON.stringify(args)} at ${new Date(now).toISOString()}`;
        const check = relaxed[tool];
        if (check) check(ra, rb, now, label);
        else expect(JSON.stringify(rb), label).toBe(JSON.stringify(ra));
        probes++;
        if (ra.ok) okCount++;
      }
    } finally {
      await a.run.dispose();
      await b.run.dispose();
      a.close();
      b.close();
    }
    expect(comparableLedger(b.ledgerPath, relaxedNames), `${o.taskId} ledger at ${new Date(now).toISOString()}`).toBe(
      comparableLedger(a.ledgerPath, relaxedNames),
    );
  }
  return { probes, ok: okCount };
}

/** probe instants in [cut − span, cut], always including the cut itself */
export function probeTimes(cut: number, span: number, n: number, seed: number): number[] {
  return [cut, ...fc.sample(fc.integer({ min: cut - span, max: cut }), { numRuns: Math.max(0, n - 1), seed })];
}

/**
 * The synthetic world of `seed` and the same world with a different future after `cut` (future seed
 * `futureSeed`), built once per test run in the shared cache (test/support/shared-synth-cache.ts).
 */
export function synthFuturesPair(o: { seed: number; futureSeed: number; start: number; end: number; cut: number }): {
  worldA: string;
  worldB: string;
} {
  const cache = testSynthCache();
  return {
    worldA: ensureSynthWorld(cache, { seed: o.seed, start: o.start, end: o.end }),
    worldB: ensureSynthWorld(cache, {
      seed: o.seed,
      start: o.start,
      end: o.end,
      future: { seed: o.futureSeed, from: o.cut },
    }),
  };
}
