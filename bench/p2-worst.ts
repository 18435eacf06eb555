/**
 * P2 worst queries (issue 18 §3): per-query CPU time of relive's news search on P2's cached worlds
 * (`p2-search.ts` builds them; this never builds one), for the cells given by `--cells`
 * (`world|kind|band`, comma-separated; default the five cells whose p99 was below 2× LanceDB).
 * The queries are P2's own timed sets (same seeds, `--runs` of them). Each query runs once to warm
 * up, then `--reps` times; its figure is the smallest process CPU time (user + sys,
 * `process.cpuUsage`) of those runs, since on a shared machine wall time is mostly waiting for a
 * core. Prints per cell the median and max over the queries and the slowest queries; `--out FILE`
 * writes every query's figure and result digest. `--base DIR` (another checkout, e.g. /work/main)
 * also opens the world with that checkout's code and runs each query through both, alternating
 * (the same moment's load for both), and fails if any result differs.
 *
 * Run: `tsx bench/p2-worst.ts [--articles N] [--runs R] [--reps N] [--cells ...] [--out FILE] [--base DIR]`.
 */
import { createHash } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WorldStore } from "../src/world/world-store.js";
import { BANDS, CORPUS_FORMAT, type Kind, type Query, querySet, SyntheticNews } from "./p2-search.js";

const DEFAULT_CELLS = [
  "lagged|and2|>10%",
  "exact|or3|<=10%",
  "lagged|or3|<=10%",
  "lagged|or3|>10%",
  "lagged|phrase2|>10%",
];

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const n = Number(opt("--articles") ?? 1_000_000);
const runs = Number(opt("--runs") ?? 3);
const reps = Number(opt("--reps") ?? 3);
const cells = (opt("--cells") ?? DEFAULT_CELLS.join(",")).split(",");
const out = opt("--out");
const base = opt("--base");
type Opened = { at(now: () => number): { news: { search(q: string, o: object): unknown } }; close(): void };
const BaseStore: { open(dir: string): Opened } | null =
  base === undefined ? null : (await import(join(base, "src", "world", "world-store.ts"))).WorldStore;
const seed = 42;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir =
  opt("--cache-dir") ?? join(ROOT, ".relive-cache", "bench", "p2-search", `${CORPUS_FORMAT}-n${n}-s${seed}`);
const counts: Record<Kind, number> = { single: 250, and2: 80, or3: 80, phrase2: 40 };
const corpus = new SyntheticNews(n, seed);

const cpuMs = (f: () => void): number => {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1e3;
};

const rows: {
  cell: string;
  q: string;
  now: number;
  from?: number;
  cpu_ms: number;
  base_cpu_ms?: number;
  digest: string;
}[] = [];
const worlds = [...new Set(cells.map((c) => c.split("|")[0] as string))];
let byBand: Map<string, string[]> | null = null;
let df: Map<string, number> | null = null;
for (const w of worlds) {
  const dir = join(cacheDir, `world-${w}`);
  if (!existsSync(join(dir, "world.json")))
    throw new Error(`no cached ${w} world in ${cacheDir}: run bench/p2-search.ts first`);
  const store = WorldStore.open(dir);
  if (byBand === null || df === null) {
    store.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, news_fts, 'row')");
    const vocab = store.db.prepare("SELECT term, doc FROM temp.vocab").all() as { term: string; doc: number }[];
    df = new Map(vocab.map((v) => [v.term, v.doc]));
    byBand = new Map(
      BANDS.map((b) => [b.name, vocab.filter((v) => v.doc / n > b.lo && v.doc / n <= b.hi).map((v) => v.term)]),
    );
  }
  const sets: Query[][] = Array.from({ length: runs }, (_, r) =>
    querySet(seed * 31 + r + 1, counts, byBand as Map<string, string[]>, df as Map<string, number>, n, corpus),
  );
  let now = 0;
  const view = store.at(() => now);
  const search = (q: Query) => {
    now = q.now;
    return view.news.search(q.q, q.from === undefined ? { limit: 10 } : { from: q.from, limit: 10 });
  };
  const baseStore = BaseStore === null ? null : BaseStore.open(dir);
  const baseView = baseStore?.at(() => now) ?? null;
  const baseSearch = (q: Query) => {
    now = q.now;
    return baseView?.news.search(q.q, q.from === undefined ? { limit: 10 } : { from: q.from, limit: 10 });
  };
  if (baseView !== null) baseSearch(sets[0]?.[0] as Query);
  // warm the world's lazy state (index, published times) outside the figures
  search(sets[0]?.[0] as Query);
  for (const cell of cells.filter((c) => c.startsWith(`${w}|`))) {
    const [, kind, band] = cell.split("|");
    const qs = sets.flat().filter((q) => q.kind === kind && q.band === band);
    const figs: number[] = [];
    const baseFigs: number[] = [];
    for (const q of qs) {
      const r = search(q);
      let best = Number.POSITIVE_INFINITY;
      let baseBest = Number.POSITIVE_INFINITY;
      if (baseView !== null) {
        const want = JSON.stringify(baseSearch(q));
        if (want !== JSON.stringify(r)) throw new Error(`${cell} ${q.q}: results differ from --base`);
      }
      for (let i = 0; i < reps; i++) {
        best = Math.min(
          best,
          cpuMs(() => search(q)),
        );
        if (baseView !== null)
          baseBest = Math.min(
            baseBest,
            cpuMs(() => baseSearch(q)),
          );
      }
      figs.push(best);
      if (baseView !== null) baseFigs.push(baseBest);
      const digest = createHash("sha256").update(JSON.stringify(r)).digest("hex").slice(0, 16);
      rows.push({
        cell,
        q: q.q,
        now: q.now,
        ...(q.from === undefined ? {} : { from: q.from }),
        cpu_ms: best,
        ...(baseView === null ? {} : { base_cpu_ms: baseBest }),
        digest,
      });
    }
    if (baseFigs.length > 0) {
      const bs = [...baseFigs].sort((x, y) => x - y);
      console.log(
        `${cell.padEnd(22)} --base: CPU median ${(bs[Math.floor((bs.length - 1) / 2)] as number).toFixed(2)} ms  p99/max ${(bs[Math.min(bs.length - 1, Math.ceil(0.99 * bs.length) - 1)] as number).toFixed(2)} / ${(bs[bs.length - 1] as number).toFixed(2)} ms`,
      );
    }
    const sorted = [...figs].sort((x, y) => x - y);
    const med = sorted[Math.floor((sorted.length - 1) / 2)] as number;
    const worst = rows
      .filter((r) => r.cell === cell)
      .sort((x, y) => y.cpu_ms - x.cpu_ms)
      .slice(0, 3)
      .map(
        (r) =>
          `${r.cpu_ms.toFixed(2)} ms ${r.q}${r.from === undefined ? "" : ` (${((r.now - r.from) / 864e5).toFixed(0)} d)`}`,
      );
    console.log(
      `${cell.padEnd(22)} ${String(qs.length).padStart(3)} queries  CPU median ${med.toFixed(2)} ms  p99/max ${(sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] as number).toFixed(2)} / ${(sorted[sorted.length - 1] as number).toFixed(2)} ms  load ${loadavg()[0]?.toFixed(2)}`,
    );
    for (const x of worst) console.log(`    ${x}`);
  }
  store.close();
  baseStore?.close();
}
if (out !== undefined) writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
