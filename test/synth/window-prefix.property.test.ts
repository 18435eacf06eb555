/**
 * Window prefix stability (issue 12 §4): a cached world whose window contains the requested one may
 * be reused only if the generator is prefix-stable, i.e. the world built for [a, c] restricted to
 * [a, b] equals a fresh build of [a, b]. Over a few (seed, window ⊂ window') pairs this pins, kind
 * by kind, that the generator's declaration (window-prefix.ts) is exact: every kind declared stable
 * is equal (rows, order, ids) in every pair, every kind declared unstable differs in some pair. A
 * generator change that breaks a stable stream, or a declaration that lets reuse through while a
 * stream still depends on the window end, fails here.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateRows, type SynthWorld } from "../../src/synth/generate.js";
import { coveringSynthWorlds, ensureSynthWorld } from "../../src/synth/synth-world.js";
import {
  kindRows,
  restrictToWindow,
  SYNTH_KINDS,
  type SynthKind,
  WINDOW_PREFIX_STABILITY,
  windowPrefixUnstable,
} from "../../src/synth/window-prefix.js";

const D = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
const HOUR = 3_600_000;

/** (seed, a, b, c): the window [a, b) inside [a, c); short spans keep the test lean */
const PAIRS = [
  { seed: 1, a: D("2026-03-01"), b: D("2026-03-02"), c: D("2026-03-04") },
  { seed: 7, a: D("2026-03-01"), b: D("2026-03-03"), c: D("2026-03-05") },
  { seed: 42, a: D("2024-06-10"), b: D("2024-06-11") + 13 * HOUR, c: D("2024-06-13") },
];

const digest = (rows: readonly unknown[]) => createHash("sha256").update(JSON.stringify(rows)).digest("hex");

interface PairResult {
  pair: string;
  /** per kind: [restricted covering world, fresh build] row count and digest */
  kinds: Record<SynthKind, { equal: boolean; restricted: number; fresh: number }>;
}

function compare(restricted: SynthWorld, fresh: SynthWorld): PairResult["kinds"] {
  const out = {} as PairResult["kinds"];
  for (const k of SYNTH_KINDS) {
    const r = kindRows(restricted, k);
    const f = kindRows(fresh, k);
    out[k] = { equal: digest(r) === digest(f), restricted: r.length, fresh: f.length };
  }
  return out;
}

/** The declaration's errors over the pairs' results (empty: exact). */
function violations(results: PairResult[], decl = WINDOW_PREFIX_STABILITY): string[] {
  const out: string[] = [];
  for (const k of SYNTH_KINDS) {
    const unequal = results.filter((r) => !r.kinds[k].equal);
    if (decl[k].stable)
      for (const r of unequal)
        out.push(
          `${k} is declared window-prefix-stable but ${r.pair}: restricted ${r.kinds[k].restricted} rows ≠ fresh ${r.kinds[k].fresh} rows (or their content)`,
        );
    else if (unequal.length === 0 && results.some((r) => r.kinds[k].fresh > 0))
      out.push(`${k} is declared not window-prefix-stable but was equal in every pair: update WINDOW_PREFIX_STABILITY`);
  }
  return out;
}

const cache = mkdtempSync(join(tmpdir(), "relive-window-prefix-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** each pair's comparison, computed once for the tests that read it */
let computed: PairResult[] | null = null;
function pairResults(): PairResult[] {
  computed ??= PAIRS.map((p) => {
    const covering = generateRows({ seed: p.seed, start: p.a, end: p.c });
    const fresh = generateRows({ seed: p.seed, start: p.a, end: p.b });
    return {
      pair: `seed ${p.seed} [${new Date(p.a).toISOString()}, ${new Date(p.b).toISOString()}) ⊂ [.., ${new Date(p.c).toISOString()})`,
      kinds: compare(restrictToWindow(covering, p.b), fresh),
    };
  });
  return computed;
}

describe("window prefix stability of the synthetic generator", () => {
  it("the declaration is exact over (seed, window ⊂ window') pairs: stable kinds equal a fresh build, unstable ones differ", () => {
    const results = pairResults();
    expect(violations(results)).toEqual([]);
    // the stable part is not vacuous: reddit carries most of the rows in every pair
    for (const r of results) expect(r.kinds.reddit_comment.fresh).toBeGreaterThan(10_000);
  }, 900_000);

  it("forcing reuse on the unstable streams is caught: declaring every kind stable yields violations", () => {
    const results = pairResults();
    const allStable = Object.fromEntries(SYNTH_KINDS.map((k) => [k, { stable: true as const }])) as Record<
      SynthKind,
      { stable: true }
    >;
    const v = violations(results, allStable);
    expect(v.length).toBeGreaterThan(0);
    for (const u of windowPrefixUnstable()) expect(v.some((x) => x.startsWith(`${u.kind} `))).toBe(true);
  }, 900_000);

  it("a cached covering world is not reused while the generator is unstable: the build says why and equals a fresh one", () => {
    const a = D("2026-03-01");
    const b = D("2026-03-02");
    const c = D("2026-03-03");
    const big = ensureSynthWorld(join(cache, "shared"), { seed: 5, start: a, end: c });
    expect(coveringSynthWorlds(join(cache, "shared"), { seed: 5, start: a, end: b })).toEqual([big]);
    expect(coveringSynthWorlds(join(cache, "shared"), { seed: 5, start: a, end: c })).toEqual([]);
    expect(coveringSynthWorlds(join(cache, "shared"), { seed: 6, start: a, end: b })).toEqual([]);
    const msgs: string[] = [];
    const small = ensureSynthWorld(join(cache, "shared"), { seed: 5, start: a, end: b }, (m) => msgs.push(m));
    expect(msgs[0]).toMatch(new RegExp(`^not reusing cached ${big} \\(its window contains this one\\): the generator`));
    expect(msgs[0]).toContain(
      `not window-prefix-stable for ${windowPrefixUnstable()
        .map((u) => u.kind)
        .join(", ")};`,
    );
    expect(msgs[0]).toContain("candle");
    const alone = ensureSynthWorld(join(cache, "alone"), { seed: 5, start: a, end: b });
    const hash = (dir: string) => (JSON.parse(readFileSync(join(dir, "world.json"), "utf8")) as { hash: string }).hash;
    expect(hash(small)).toBe(hash(alone));
    expect(hash(small)).not.toBe(hash(big));
  }, 900_000);
});
