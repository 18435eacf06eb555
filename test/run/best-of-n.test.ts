import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { rescoreRun } from "../../src/run/rescore.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { restartRun } from "../../src/run/restart.js";
import { resumeRun } from "../../src/run/runner.js";
import { ensureSynthWorld } from "../../src/synth/synth-world.js";
import { testSynthCache } from "../support/shared-synth-cache.js";
import { freshRunsDir, options, run } from "./helpers.js";

const SYNTH_CACHE = testSynthCache();
const T = (s: string) => Date.parse(s);
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");
const ledgerOf = (dir: string) =>
  read(dir, "ledger.jsonl")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as LedgerEvent);
/** best first (higher tw_f1), null last, ties to the lowest index: the documented rule, written out independently */
const rankBranches = (xs: { branch: number; score: number | null }[], _direction: "higher") =>
  [...xs]
    .sort(
      (a, b) => (b.score ?? Number.NEGATIVE_INFINITY) - (a.score ?? Number.NEGATIVE_INFINITY) || a.branch - b.branch,
    )
    .map((x) => x.branch);
/** spend of a ledger's priced lines before `at`, summed in ledger order (as the branch's own wallet summed it) */
const spentBefore = (events: readonly LedgerEvent[], at: number) => {
  let s = 0;
  for (const e of events)
    if ((e.type === "tool_call" || e.type === "llm_call") && e.t < at && e.cost_usd > 0) s += e.cost_usd;
  return s;
};

/**
 * Seed 3 draws branch 1 a velocity threshold of 8/h (it floods its cap early) and branch 2 one of 56/h
 * with a 3-comment floor: at the prunes (after days 2 and 3) branch 2 leads, the reference branch 0
 * is second, branch 1 last, so the survivor is not the lowest index.
 */
describe("Best-of-N + Prune: scripted velocity on popularity (4 days, synthetic world seed 1, run seed 3)", () => {
  let dir: string;
  const base = () =>
    ({
      task: "popularity",
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-05T00:00:00Z",
      world: { dir },
      feedback: "oracle",
      seed: 3,
      agent: { model: "scripted:velocity" },
    }) satisfies RunConfigInput;
  const bestOf = (): RunConfigInput => ({
    ...base(),
    agent: { model: "scripted:velocity", learning: { method: "best-of-n", n: 3, prune_days: [2, 3] } },
  });
  beforeAll(() => {
    dir = ensureSynthWorld(SYNTH_CACHE, { seed: 1, start: T("2026-03-01T00:00:00Z"), end: T("2026-03-08T00:00:00Z") });
  });

  it("keeps the best branch, scores exactly like that branch alone, books every branch's spend up to its prune, and is deterministic", async () => {
    const bon = await run(bestOf());
    const singles: Awaited<ReturnType<typeof run>>[] = [];
    for (const k of [0, 1, 2])
      singles.push(await run({ ...base(), agent: { model: "scripted:velocity", ...(k ? { branch: k } : {}) } }));
    const finals = singles.map((s) => s.results.performance.primary.value as number);
    // the parameter draws make branches of clearly different quality
    expect(Math.max(...finals) - Math.min(...finals)).toBeGreaterThan(0.1);

    // the expected prunes, from the single runs' own anytime curves (day 2: keep 2 of 3; day 3: keep 1 of 2)
    const at = (k: number, day: number) => singles[k]!.results.timing.anytime[day - 1]!.primary;
    const r1 = rankBranches(
      [0, 1, 2].map((k) => ({ branch: k, score: at(k, 2) })),
      "higher",
    );
    const alive = r1.slice(0, 2).sort();
    const r2 = rankBranches(
      alive.map((k) => ({ branch: k, score: at(k, 3) })),
      "higher",
    );
    const survivor = r2[0]!;
    expect(survivor).toBe(2);
    const stopped1 = r1[2]!;
    const stopped2 = r2[1]!;
    const b = bon.results.best_of_n!;
    expect(b.survivor).toBe(survivor);
    expect(b.prunes).toEqual([
      { day: 2, ranking: r1, kept: alive },
      { day: 3, ranking: r2, kept: [survivor] },
    ]);
    for (const x of b.branches)
      expect(x.scores).toEqual(
        x.branch === stopped1
          ? [{ day: 2, score: at(x.branch, 2) }]
          : [
              { day: 2, score: at(x.branch, 2) },
              { day: 3, score: at(x.branch, 3) },
            ],
      );

    // the survivor's commitments are the run's: its score, outcomes and curve are that branch's single run's
    const single = singles[survivor]!.results;
    expect(bon.results.performance).toEqual(single.performance);
    expect(bon.results.outcomes).toEqual(single.outcomes);
    expect(bon.results.timing).toEqual(single.timing);
    expect(bon.results.resources.wakes).toBe(single.resources.wakes);

    // cost: every branch's spend up to where it stopped, the survivor's whole run
    const d1 = T("2026-03-03T00:00:00Z");
    const d2 = T("2026-03-04T00:00:00Z");
    const spend1 = spentBefore(ledgerOf(singles[stopped1]!.runDir), d1);
    const spend2 = spentBefore(ledgerOf(singles[stopped2]!.runDir), d2);
    expect(spend1).toBeGreaterThan(0);
    expect(b.branches.find((x) => x.branch === stopped1)).toMatchObject({ stopped_after_day: 2, spent_usd: spend1 });
    expect(b.branches.find((x) => x.branch === stopped2)).toMatchObject({ stopped_after_day: 3, spent_usd: spend2 });
    expect(b.branches.find((x) => x.branch === survivor)).toMatchObject({
      stopped_after_day: null,
      spent_usd: single.resources.spent_usd,
    });
    expect(b.survivor_spent_usd).toBe(single.resources.spent_usd);
    const total = single.resources.spent_usd + spend1 + spend2;
    // the same sums added in another order: equal up to rounding of the last bits
    expect(bon.results.resources.spent_usd).toBeCloseTo(total, 12);
    expect(b.cost_ratio).toBeCloseTo(total / single.resources.spent_usd, 12);
    expect(b.cost_ratio).toBeGreaterThan(1);

    // the ledger alone tells a grader who survived and what was paid: the prune lines name each branch's record
    const ledger = ledgerOf(bon.runDir);
    const prunes = ledger.filter((e) => e.type === "prune");
    expect(prunes.map((p) => [p.t, p.day])).toEqual([
      [d1, 2],
      [d2, 3],
    ]);
    for (const p of prunes)
      for (const x of p.branches) {
        const lines = read(join(bon.runDir, "branches", `b${x.branch}`), "ledger.jsonl").split("\n");
        const prefix = lines
          .slice(0, x.ledger_lines)
          .map((l) => `${l}\n`)
          .join("");
        expect(createHash("sha256").update(prefix).digest("hex")).toBe(x.ledger_sha256);
      }
    // the run's ledger is the survivor's line for line (seq, the run id and the prune lines aside)
    const strip = (es: LedgerEvent[]) =>
      es
        .filter((e) => e.type !== "prune")
        .map(({ seq: _s, ...e }) => (e.type === "run_start" ? { ...e, run_id: "-" } : e));
    expect(strip(ledger)).toEqual(strip(ledgerOf(singles[survivor]!.runDir)));
    // branch 0 is the plain single run (same run id)
    expect(JSON.parse(read(join(bon.runDir, "branches", "b0"), "config.json"))).toEqual(
      JSON.parse(read(singles[0]!.runDir, "config.json")),
    );

    // a restart of the whole run is refused before anything is written (its branches restart as runs)
    const siblings = readdirSync(dirname(bon.runDir));
    await expect(restartRun(bon.runDir, { fromDay: 2 }, options())).rejects.toThrow(
      /a Best-of-N run's record is its survivor's; restart its branch/,
    );
    expect(readdirSync(dirname(bon.runDir))).toEqual(siblings);

    // a grader's rescore of the run directory rebuilds results.json byte for byte
    const before = read(bon.runDir, "results.json");
    const re = await rescoreRun(bon.runDir, options());
    expect(re.diffs).toEqual([]);
    expect(read(bon.runDir, "results.json")).toBe(before);

    // deterministic and resumable: the same config again (elsewhere), killed during the second prune's
    // re-runs and continued with `relive resume`, gives byte-identical results and ledger
    const elsewhere = options(freshRunsDir());
    let killed = false;
    await expect(
      run(bestOf(), {
        ...elsewhere,
        onProgress: (p) => {
          if (p.day === 3 && !p.replaying && !killed) {
            killed = true;
            throw new Error("killed");
          }
        },
      }),
    ).rejects.toThrow("killed");
    const again = await resumeRun(
      join(elsewhere.runsDir, relative(dirname(dirname(dirname(bon.runDir))), bon.runDir)),
      elsewhere,
    );
    expect(again.runDir).not.toBe(bon.runDir);
    expect(read(again.runDir, "results.json")).toBe(before);
    expect(read(again.runDir, "ledger.jsonl")).toBe(read(bon.runDir, "ledger.jsonl"));
  }, 900_000);

  it("refuses bad Best-of-N configs at config time, naming the field", async () => {
    const runsDir = freshRunsDir();
    const resolve = (c: RunConfigInput) => resolveRun(parseRunConfig(c), options(runsDir));
    const withLearning = (learning: unknown, extra: Partial<RunConfigInput> = {}) =>
      ({ ...base(), ...extra, agent: { model: "scripted:velocity", learning } }) as RunConfigInput;
    expect(() => resolve(withLearning({ method: "best-of-n", n: 3, prune_days: [1] }, { feedback: "none" }))).toThrow(
      /best-of-n keeps the branch with the best settled score.*feedback: none/,
    );
    expect(() => parseRunConfig(withLearning({ method: "best-of-n", n: 1, prune_days: [1] }))).toThrow(
      /agent\.learning\.n: best-of-n needs at least 2 branches/,
    );
    expect(() => parseRunConfig(withLearning({ method: "best-of-n", prune_days: [2, 2] }))).toThrow(
      /agent\.learning\.prune_days: must be strictly increasing/,
    );
    expect(() => parseRunConfig(withLearning({ method: "best-of-m" }))).toThrow(/agent\.learning\.method/);
    expect(() => resolve(withLearning({ method: "best-of-n", prune_days: [2, 4] }))).toThrow(
      /prune_days: 4 not inside the episode of 4 days/,
    );
    expect(() => parseRunConfig(withLearning({ method: "best-of-n", n: 3, prune_days: [1, 2], keep: [2, 2] }))).toThrow(
      /agent\.learning\.keep: the last prune keeps exactly 1 branch/,
    );
    expect(() =>
      resolve({ ...base(), agent: { model: "scripted:silent", learning: { method: "best-of-n", prune_days: [1] } } }),
    ).toThrow(/scripted:silent: the policy has no parameter draw/);
    expect(() =>
      resolve({
        ...base(),
        agent: { model: "scripted:velocity", branch: 1, learning: { method: "best-of-n", prune_days: [1] } },
      }),
    ).toThrow(/agent\.branch: a Best-of-N branch is a single run/);
    await expect(
      run(withLearning({ method: "best-of-n", prune_days: [1] }), { ...options(runsDir), stopAfterDay: 1 }),
    ).rejects.toThrow(/--stop-after-day: a Best-of-N run .* pauses its branches at its prune days itself/);
    expect(readdirSync(runsDir)).toEqual([]);
  });
});
