/**
 * P2: as-of BM25 news search latency by term-frequency band (spec/quality.md P2), side by side with
 * LanceDB 0.31.0 full-text search with a date prefilter.
 *
 * Corpus: N synthetic articles (seeded PRNG; Zipfian vocabulary of synthetic words mixed with English
 * stopwords; one year). Two worlds over the same articles:
 * - `exact`: visible_at = published_at (relive's JSONL importer and synthetic worlds);
 * - `lagged`: the CC-NEWS publish clock (data.md: the self-reported time when the crawl corroborates
 *   it within 2 h, else crawl time − 2 h): visible_at = crawl time = published_at + U(−2 h, +2 h) for
 *   70% of articles and published_at + 2 h for 30%. Such worlds take the join path (exact
 *   published_at / visible_at test per match).
 * Worlds (and LanceDB tables) are cached under `.relive-cache/bench/p2-search/<key>`, keyed by every
 * parameter that shapes them (articles, seed, lag model, corpus and world format versions; LanceDB
 * tables by the corpus only, so a new world format reuses them); a cached world is never rebuilt,
 * and its recorded build time is reported.
 *
 * Queries (limit 10, random `now` in the year, half with from = now − U(1, 90) days), by
 * document-frequency band of their terms (≤0.1%, ≤1%, ≤10%, >10%), four kinds: single terms,
 * two-term AND (`a b`), three-term OR (`a OR b OR c`) and two-word phrases taken from articles
 * (`"a b"`). A warm-up set of queries runs first through both engines; the timed sets (`--runs`,
 * default 3) are other queries (other seeds), and the figures are medians over the runs of each
 * run's p50 and p99. The engines alternate per query. The bench also checks, on a sample, that
 * relive's results equal the FTS5 statement's (`identity_mismatches`) and times that FTS5 path.
 *
 * LanceDB: installed by this bench itself (`LANCEDB_INSTALL`, into the project's node_modules,
 * never saved to package.json) when missing or at another version; if that fails the bench exits
 * non-zero (`--no-lancedb` skips the comparison). Table (id, title, body = title + text,
 * published_at / visible_at int64), FTS index on body (simple tokenizer, lowercase, ascii folding,
 * English stemming and stopwords, positions), BTree indexes on the dates; queries through
 * `query().fullTextSearch(MatchQuery | PhraseQuery).where(date bound).limit(k)` (a prefilter).
 *
 * Both engines' files (the worlds' directories and the LanceDB tables) are read once into the OS
 * page cache before the warm-up (`--no-prewarm` skips it): the bench compares query work, and a
 * search service's index is resident after a while; without it a query's first read of a cold page
 * can wait 40-370 ms on a virtual disk (measured: 2 ms of CPU in a 348 ms query), which decides a
 * 40-query p99 by itself. Skipped (and said) when the files exceed half the machine's memory.
 *
 * Run: `tsx bench/p2-search.ts [--articles N] [--runs R] [--worlds exact,lagged] [--no-lancedb]
 * [--no-hybrid] [--no-prewarm] [--quick]` (default 1,000,000 articles).
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AsOfView } from "../src/world/as-of-view.js";
import { ftsIndexTextFast } from "../src/world/fts-build.js";
import { compileSearchQuery } from "../src/world/search-query.js";
import { SqliteAsOfView } from "../src/world/sqlite-as-of-view.js";
import type { NewsRow } from "../src/world/types.js";
import { WorldBuilder } from "../src/world/world-builder.js";
import { WorldStore } from "../src/world/world-store.js";
import { measureHybrid } from "./p2-hybrid.js";

export const YEAR_MS = 365 * 24 * 3600 * 1000;
export const CORPUS_START = Date.UTC(2025, 0, 1);

/** The LanceDB comparison's packages, installed by this bench itself (never saved to package.json). */
export const LANCEDB_VERSION = "0.31.0";
export const LANCEDB_PACKAGES = [`@lancedb/lancedb@${LANCEDB_VERSION}`, "apache-arrow@18.1.0"];
export const LANCEDB_INSTALL = `npm i --no-save --no-audit --no-fund -E ${LANCEDB_PACKAGES.join(" ")}`;

/** The slice of the @lancedb/lancedb 0.31 API this bench uses (typed locally: the package is optional). */
interface LanceQuery {
  fullTextSearch(q: string | object, opts?: { columns?: string | string[] }): LanceQuery;
  where(predicate: string): LanceQuery;
  select(columns: string[]): LanceQuery;
  limit(n: number): LanceQuery;
  toArray(): Promise<Record<string, unknown>[]>;
}
interface LanceTable {
  add(rows: Record<string, unknown>[]): Promise<unknown>;
  createIndex(column: string, opts: { config: unknown }): Promise<void>;
  countRows(): Promise<number>;
  query(): LanceQuery;
  close(): void;
}
interface LanceModule {
  connect(uri: string): Promise<{
    createEmptyTable(name: string, schema: unknown): Promise<LanceTable>;
    openTable(name: string): Promise<LanceTable>;
    close(): void;
  }>;
  MatchQuery: new (q: string, column: string, opts?: { operator?: string }) => object;
  PhraseQuery: new (q: string, column: string) => object;
  Operator: { And: string; Or: string };
  Index: {
    fts(opts: Record<string, unknown>): unknown;
    btree(): unknown;
  };
}
interface ArrowModule {
  Schema: new (fields: unknown[]) => unknown;
  Field: new (name: string, type: unknown, nullable: boolean) => unknown;
  Utf8: new () => unknown;
  Int64: new () => unknown;
}

/** Imports the optional LanceDB package and its apache-arrow peer; null when either is missing. */
async function loadLanceDb(): Promise<{ lancedb: LanceModule; arrow: ArrowModule; version: string } | null> {
  // module names in variables: tsc must not resolve a package that package.json does not list
  const lanceName = "@lancedb/lancedb";
  const arrowName = "apache-arrow";
  // LanceDB 0.31.0 sizes its CPU pool by the core count; with 2 cores its FTS index build stalls
  // (idle, no progress, from a few thousand of these articles on), with 8 threads it completes. The
  // variable is read when the native pool starts, so it must be set before the first LanceDB call.
  process.env.LANCE_CPU_THREADS ??= String(Math.max(8, cpus().length));
  try {
    const lancedb = (await import(lanceName)) as LanceModule;
    const arrow = (await import(arrowName)) as ArrowModule;
    const main = createRequire(import.meta.url).resolve(lanceName); // <pkg>/dist/index.js
    const pkg = JSON.parse(readFileSync(join(dirname(main), "..", "package.json"), "utf8")) as { version: string };
    return { lancedb, arrow, version: pkg.version };
  } catch {
    return null;
  }
}

/** mulberry32: a small seeded PRNG (bench-only). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONS = "bdfglmnprstvz";
const VOWELS = "aeiou";
const FILLER = "the of and to in a is that for on with as was at by from it an be this are have has".split(" ");

/** Synthetic vocabulary word for rank r: consonant-vowel syllables ending in "k" (no stopword, stable under porter). */
function vocabWord(r: number): string {
  const base = CONS.length * VOWELS.length;
  let x = r + base;
  let w = "";
  while (x > 0) {
    const s = x % base;
    w += (CONS[s % CONS.length] as string) + (VOWELS[Math.floor(s / CONS.length)] as string);
    x = Math.floor(x / base);
  }
  return `${w}k`;
}

/** A deterministic synthetic news corpus: `articles(from, to)` yields rows in id order, times jittered. */
export class SyntheticNews {
  readonly n: number;
  private readonly vocab: string[];
  private readonly cdf: Float64Array;
  private readonly seed: number;

  constructor(n: number, seed = 42, vocabSize = 100_000, zipfS = 1.07) {
    this.n = n;
    this.seed = seed;
    this.vocab = Array.from({ length: vocabSize }, (_, r) => vocabWord(r));
    this.cdf = new Float64Array(vocabSize);
    let acc = 0;
    for (let r = 0; r < vocabSize; r++) {
      acc += 1 / (r + 1) ** zipfS;
      this.cdf[r] = acc;
    }
    for (let r = 0; r < vocabSize; r++) this.cdf[r] = (this.cdf[r] as number) / acc;
  }

  private word(rand: () => number): string {
    const u = rand();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return this.vocab[lo] as string;
  }

  private sentence(rand: () => number, words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      out.push(rand() < 0.35 ? (FILLER[Math.floor(rand() * FILLER.length)] as string) : this.word(rand));
    }
    const s = out.join(" ");
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  /** Article i: deterministic from (seed, i). published = visible, spread over one year with ±30 min jitter. */
  article(i: number): NewsRow {
    const rand = mulberry32((this.seed * 1_000_003 + i) >>> 0);
    const title = this.sentence(rand, 6 + Math.floor(rand() * 5));
    const parts: string[] = [];
    let left = 60 + Math.floor(rand() * 60);
    while (left > 0) {
      const k = Math.min(left, 8 + Math.floor(rand() * 10));
      parts.push(`${this.sentence(rand, k)}.`);
      left -= k;
    }
    const t = CORPUS_START + Math.floor((i * YEAR_MS) / this.n) + Math.floor((rand() - 0.5) * 3_600_000);
    const domain = `site${Math.floor(rand() * 200)}.example`;
    return {
      id: `n${i}`,
      url: `https://${domain}/a/${i}`,
      domain,
      title,
      text: parts.join(" "),
      published_at: t,
      visible_at: t,
    };
  }

  *articles(from = 0, to = this.n): Generator<NewsRow> {
    for (let i = from; i < to; i++) yield this.article(i);
  }
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** bump when the synthetic corpus changes (cached worlds and LanceDB tables are keyed by it) */
const CORPUS_VERSION = "p2c2";
/** bump when the world format changes (cached worlds are keyed by it; LanceDB tables are not) */
const WORLD_FORMAT = "w4";
export const CORPUS_FORMAT = `${CORPUS_VERSION}-${WORLD_FORMAT}`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const K = 10;

export const BANDS = [
  { name: "<=0.1%", lo: 0, hi: 0.001 },
  { name: "<=1%", lo: 0.001, hi: 0.01 },
  { name: "<=10%", lo: 0.01, hi: 0.1 },
  { name: ">10%", lo: 0.1, hi: 1.01 },
] as const;
export const KINDS = ["single", "and2", "or3", "phrase2"] as const;
export type Kind = (typeof KINDS)[number];
type WorldKind = "exact" | "lagged";

/** The lagged world's visible_at of an article (deterministic per article). */
function laggedVisible(a: NewsRow, i: number, seed: number): number {
  const r = mulberry32((seed * 7_000_003 + i) ^ 0x5bd1e995);
  return r() < 0.7 ? a.published_at + Math.round((r() * 4 - 2) * HOUR) : a.published_at + 2 * HOUR;
}

function worldArticle(corpus: SyntheticNews, i: number, kind: WorldKind, seed: number): NewsRow {
  const a = corpus.article(i);
  return kind === "exact" ? a : { ...a, visible_at: laggedVisible(a, i, seed) };
}

interface BuildInfo {
  build_seconds: number;
  synth_seconds: number;
  stages_ms: Record<string, number>;
  built_at: string;
  load_average_during_build: number[];
}

/** Builds (or finds in the cache) the world of `kind`; returns its directory and build record. */
function cachedWorld(cacheDir: string, corpus: SyntheticNews, kind: WorldKind, seed: number) {
  const dir = join(cacheDir, `world-${kind}`);
  const infoPath = join(cacheDir, `world-${kind}.build.json`);
  if (existsSync(join(dir, "world.json")) && existsSync(infoPath)) {
    return { dir, info: JSON.parse(readFileSync(infoPath, "utf8")) as BuildInfo, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  const n = corpus.n;
  const t0 = performance.now();
  const b = WorldBuilder.create(dir, {
    name: `p2-synthetic-${n}-${kind}`,
    window: { start: CORPUS_START - 4 * HOUR, end: CORPUS_START + YEAR_MS + 4 * HOUR },
    builder: "bench/p2-search",
    builder_version: CORPUS_FORMAT,
  });
  let genMs = 0;
  try {
    for (let i = 0; i < n; i += 20_000) {
      const g = performance.now();
      const batch: NewsRow[] = [];
      for (let j = i; j < Math.min(n, i + 20_000); j++) batch.push(worldArticle(corpus, j, kind, seed));
      genMs += performance.now() - g;
      b.insert("news", batch);
    }
    b.finish();
  } catch (e) {
    b.abort();
    throw e;
  }
  const info: BuildInfo = {
    build_seconds: r3((performance.now() - t0 - genMs) / 1e3),
    synth_seconds: r3(genMs / 1e3),
    stages_ms: b.finishTimings,
    built_at: new Date().toISOString(),
    load_average_during_build: loadavg().map((x) => Number(x.toFixed(2))),
  };
  writeFileSync(infoPath, `${JSON.stringify(info, null, 2)}\n`);
  return { dir, info, cached: false };
}

/** Imports LanceDB, installing the pinned version first when it is missing or another version. */
async function ensureLanceDb(): Promise<{ lancedb: LanceModule; arrow: ArrowModule; version: string }> {
  const installed = () => {
    try {
      const pkg = join(ROOT, "node_modules", "@lancedb", "lancedb", "package.json");
      return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
    } catch {
      return null;
    }
  };
  if (installed() !== LANCEDB_VERSION) {
    // install where node_modules really is: a git worktree may link it to another checkout's, and
    // npm run in the worktree would replace that link by a fresh tree
    const modules = join(ROOT, "node_modules");
    const cwd = existsSync(modules) ? dirname(realpathSync(modules)) : ROOT;
    console.log(`installing LanceDB for the comparison in ${cwd}: ${LANCEDB_INSTALL}`);
    const r = spawnSync("npm", ["i", "--no-save", "--no-audit", "--no-fund", "-E", ...LANCEDB_PACKAGES], {
      cwd,
      stdio: "inherit",
    });
    if (r.status !== 0 || installed() !== LANCEDB_VERSION) {
      throw new Error(
        `P2: could not install LanceDB ${LANCEDB_VERSION} (\`${LANCEDB_INSTALL}\` exited ${String(r.status ?? r.error)}); run it by hand or pass --no-lancedb`,
      );
    }
  }
  const l = await loadLanceDb();
  if (l === null || l.version !== LANCEDB_VERSION) {
    throw new Error(`P2: LanceDB ${LANCEDB_VERSION} is installed but cannot be loaded; pass --no-lancedb to skip it`);
  }
  return l;
}

/** Loads the world's articles into a cached LanceDB table (rebuilt only when its done-marker is missing). */
async function cachedLance(
  lance: { lancedb: LanceModule; arrow: ArrowModule },
  cacheDir: string,
  corpus: SyntheticNews,
  kind: WorldKind,
  seed: number,
): Promise<{ table: LanceTable; close: () => void; info: Record<string, number>; cached: boolean }> {
  const dir = join(cacheDir, `lancedb-${kind}`);
  const done = join(cacheDir, `lancedb-${kind}.build.json`);
  const { lancedb, arrow } = lance;
  if (existsSync(done)) {
    const db = await lancedb.connect(dir);
    const table = await db.openTable("news");
    if ((await table.countRows()) === corpus.n) {
      return {
        table,
        close: () => {
          table.close();
          db.close();
        },
        info: JSON.parse(readFileSync(done, "utf8")) as Record<string, number>,
        cached: true,
      };
    }
    table.close();
    db.close();
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(done, { force: true });
  const db = await lancedb.connect(dir);
  const schema = new arrow.Schema([
    new arrow.Field("id", new arrow.Utf8(), false),
    new arrow.Field("title", new arrow.Utf8(), false),
    new arrow.Field("body", new arrow.Utf8(), false),
    new arrow.Field("published_at", new arrow.Int64(), false),
    new arrow.Field("visible_at", new arrow.Int64(), false),
  ]);
  const table = await db.createEmptyTable("news", schema);
  let addMs = 0;
  for (let i = 0; i < corpus.n; i += 100_000) {
    const rows: Record<string, unknown>[] = [];
    for (let j = i; j < Math.min(corpus.n, i + 100_000); j++) {
      const a = worldArticle(corpus, j, kind, seed);
      rows.push({
        id: a.id,
        title: a.title,
        body: `${a.title}\n${a.text}`,
        published_at: a.published_at,
        visible_at: a.visible_at,
      });
    }
    const a0 = performance.now();
    await table.add(rows);
    addMs += performance.now() - a0;
  }
  const f0 = performance.now();
  await table.createIndex("body", {
    config: lancedb.Index.fts({
      withPosition: true,
      baseTokenizer: "simple",
      lowercase: true,
      asciiFolding: true,
      stem: true,
      removeStopWords: true,
      language: "English",
    }),
  });
  const ftsMs = performance.now() - f0;
  const b0 = performance.now();
  await table.createIndex("visible_at", { config: lancedb.Index.btree() });
  await table.createIndex("published_at", { config: lancedb.Index.btree() });
  const btreeMs = performance.now() - b0;
  if ((await table.countRows()) !== corpus.n) throw new Error("LanceDB table row count differs from the corpus");
  const info = { add_s: r3(addMs / 1e3), fts_index_s: r3(ftsMs / 1e3), date_btree_s: r3(btreeMs / 1e3) };
  writeFileSync(done, `${JSON.stringify(info, null, 2)}\n`);
  return {
    table,
    close: () => {
      table.close();
      db.close();
    },
    info,
    cached: false,
  };
}

export interface Query {
  kind: Kind;
  band: string;
  /** the relive query string */
  q: string;
  /** the terms (phrase words) for LanceDB */
  words: string[];
  now: number;
  from?: number;
}

/** A query set of `counts[kind]` queries per band, from its own seed. */
export function querySet(
  seed: number,
  counts: Record<Kind, number>,
  byBand: Map<string, string[]>,
  df: Map<string, number>,
  n: number,
  corpus: SyntheticNews,
): Query[] {
  const rand = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)] as T;
  const out: Query[] = [];
  const when = () => {
    const now = CORPUS_START + 7 * DAY + Math.floor(rand() * (YEAR_MS - 7 * DAY));
    return rand() < 0.5 ? { now, from: now - Math.floor((1 + rand() * 89) * DAY) } : { now };
  };
  for (const band of BANDS) {
    const terms = byBand.get(band.name) ?? [];
    if (terms.length === 0) continue;
    for (const kind of KINDS) {
      for (let i = 0; i < counts[kind]; i++) {
        let words: string[];
        let q: string;
        switch (kind) {
          case "single":
            words = [pick(terms)];
            q = words[0] as string;
            break;
          case "and2":
            words = [pick(terms), pick(terms)];
            q = words.join(" ");
            break;
          case "or3":
            words = [pick(terms), pick(terms), pick(terms)];
            q = words.join(" OR ");
            break;
          case "phrase2": {
            // two adjacent content words of a random article, the first in the band
            words = [pick(terms), pick(terms)];
            for (let tries = 0; tries < 200; tries++) {
              const toks = ftsIndexTextFast(corpus.article(Math.floor(rand() * n)).text).split(" ");
              const at = toks.findIndex((t, j) => {
                const f = (df.get(t) ?? 0) / n;
                return j + 1 < toks.length && f > band.lo && f <= band.hi;
              });
              if (at >= 0) {
                words = [toks[at] as string, toks[at + 1] as string];
                break;
              }
            }
            q = `"${words.join(" ")}"`;
            break;
          }
          default: {
            const never: never = kind;
            throw new Error(`unknown kind ${String(never)}`);
          }
        }
        out.push({ kind, band: band.name, q, words, ...when() });
      }
    }
  }
  return out;
}

/** every file under `dirs`, recursively */
function filesUnder(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

/**
 * Reads every file under `dirs` once (16 MiB at a time) so the OS page cache holds them, unless
 * they exceed half the machine's memory. Returns what was done.
 */
export function prewarmPageCache(
  dirs: string[],
): { files: number; bytes: number; seconds: number } | { skipped: string } {
  const files = filesUnder(dirs);
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
  if (bytes > totalmem() / 2)
    return {
      skipped: `${(bytes / 2 ** 30).toFixed(1)} GiB of files, over half the memory (${(totalmem() / 2 ** 30).toFixed(1)} GiB)`,
    };
  const t0 = performance.now();
  const buf = Buffer.allocUnsafe(16 * 2 ** 20);
  for (const f of files) {
    const fd = openSync(f, "r");
    try {
      while (readSync(fd, buf, 0, buf.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
  return { files: files.length, bytes, seconds: r3((performance.now() - t0) / 1e3) };
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}
const median = (xs: number[]) =>
  pct(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const r3 = (x: number) => Number(x.toFixed(3));

function parseOpts(argv: string[]) {
  const val = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  const quick = argv.includes("--quick");
  const articles = Number(val("--articles") ?? (quick ? 100_000 : 1_000_000));
  if (!Number.isInteger(articles) || articles < 1000) throw new Error("--articles needs an integer ≥ 1000");
  const runs = Number(val("--runs") ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs needs an integer ≥ 1");
  const worlds = (val("--worlds") ?? "exact,lagged").split(",") as WorldKind[];
  for (const w of worlds) if (w !== "exact" && w !== "lagged") throw new Error(`--worlds: unknown world ${w}`);
  return {
    articles,
    runs,
    worlds,
    quick,
    lancedb: !argv.includes("--no-lancedb"),
    prewarm: !argv.includes("--no-prewarm"),
    hybrid: !argv.includes("--no-hybrid"),
  };
}

export interface P2Options {
  articles?: number;
  seed?: number;
  runs?: number;
  worlds?: WorldKind[];
  lancedb?: boolean;
  hybrid?: boolean;
  /** read both engines' files into the page cache before the warm-up (default true) */
  prewarm?: boolean;
  quick?: boolean;
  cacheDir?: string;
}

export async function run(opts: P2Options = {}) {
  const n = opts.articles ?? 1_000_000;
  const seed = opts.seed ?? 42;
  const runs = opts.runs ?? 3;
  const worlds = opts.worlds ?? ["exact", "lagged"];
  const counts: Record<Kind, number> = opts.quick
    ? { single: 60, and2: 25, or3: 25, phrase2: 15 }
    : { single: 250, and2: 80, or3: 80, phrase2: 40 };
  const warmCounts: Record<Kind, number> = { single: 40, and2: 15, or3: 15, phrase2: 10 };
  const cacheDir =
    opts.cacheDir ?? join(ROOT, ".relive-cache", "bench", "p2-search", `${CORPUS_FORMAT}-n${n}-s${seed}`);
  // LanceDB tables depend on the corpus only: a new world format reuses them
  const lanceDir =
    opts.cacheDir ?? join(ROOT, ".relive-cache", "bench", "p2-search", `${CORPUS_VERSION}-lancedb-n${n}-s${seed}`);
  mkdirSync(cacheDir, { recursive: true });
  mkdirSync(lanceDir, { recursive: true });
  const lance = opts.lancedb === false ? null : await ensureLanceDb();
  const corpus = new SyntheticNews(n, seed);
  const load0 = loadavg().map((x) => Number(x.toFixed(2)));

  const builds: Record<string, unknown> = {};
  const warmDirs: string[] = [];
  const opened: { kind: WorldKind; store: WorldStore; lance: Awaited<ReturnType<typeof cachedLance>> | null }[] = [];
  try {
    for (const kind of worlds) {
      const w = cachedWorld(cacheDir, corpus, kind, seed);
      console.log(
        `${kind} world: ${w.cached ? "cached, built earlier in" : "built in"} ${w.info.build_seconds.toFixed(1)} s (news index: write ${((w.info.stages_ms.news_index ?? Number.NaN) / 1e3).toFixed(1)} s + feed ${((w.info.stages_ms.news_index_feed_overlapped ?? Number.NaN) / 1e3).toFixed(1)} s overlapped with the FTS worker, FTS ${(((w.info.stages_ms.fts_insert ?? 0) + (w.info.stages_ms.fts_optimize ?? 0)) / 1e3).toFixed(1)} s)`,
      );
      const l = lance ? await cachedLance(lance, lanceDir, corpus, kind, seed) : null;
      if (l) console.log(`${kind} LanceDB table: ${l.cached ? "cached" : "built"} ${JSON.stringify(l.info)}`);
      builds[kind] = { ...w.info, cached: w.cached, lancedb: l ? { ...l.info, cached: l.cached } : null };
      opened.push({ kind, store: WorldStore.open(w.dir), lance: l });
      warmDirs.push(w.dir, ...(l ? [join(lanceDir, `lancedb-${kind}`)] : []));
    }
    const prewarm = opts.prewarm === false ? { skipped: "--no-prewarm" } : prewarmPageCache(warmDirs);
    console.log(
      "skipped" in prewarm
        ? `page cache prewarm skipped: ${prewarm.skipped}`
        : `page cache: read ${prewarm.files} files (${(prewarm.bytes / 2 ** 30).toFixed(2)} GiB) of both engines in ${prewarm.seconds} s`,
    );

    // terms by document-frequency band (the same texts in every world)
    const first = (opened[0] as { store: WorldStore }).store;
    first.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, news_fts, 'row')");
    const vocab = first.db.prepare("SELECT term, doc FROM temp.vocab").all() as { term: string; doc: number }[];
    const df = new Map(vocab.map((v) => [v.term, v.doc]));
    const byBand = new Map<string, string[]>();
    for (const band of BANDS) {
      byBand.set(
        band.name,
        vocab.filter((v) => v.doc / n > band.lo && v.doc / n <= band.hi).map((v) => v.term),
      );
    }
    const warm = querySet(seed ^ 0x1234567, warmCounts, byBand, df, n, corpus);
    const timedSets = Array.from({ length: runs }, (_, r) =>
      querySet(seed * 31 + r + 1, counts, byBand, df, n, corpus),
    );

    const lanceQuery = (l: LanceModule, table: LanceTable, q: Query) => {
      const fts =
        q.kind === "phrase2"
          ? new l.PhraseQuery(q.words.join(" "), "body")
          : new l.MatchQuery(q.words.join(" "), "body", {
              operator: q.kind === "and2" ? l.Operator.And : l.Operator.Or,
            });
      return table
        .query()
        .fullTextSearch(fts)
        .where(
          `visible_at <= ${q.now} AND published_at <= ${q.now}${q.from === undefined ? "" : ` AND published_at >= ${q.from}`}`,
        )
        .select(["id", "published_at", "visible_at", "_score"])
        .limit(K)
        .toArray();
    };
    const key = (w: string, q: Query) => `${w}|${q.kind}|${q.band}`;
    type Acc = { rel: number[]; lan: number[]; relShort: number; lanShort: number; enough: number; outside: number };
    const perRun: Map<string, Acc>[] = [];
    const identity = new Map<string, { checked: number; mismatches: number; fts: number[] }>();

    for (const o of opened) {
      let now = 0;
      const view = o.store.at(() => now);
      const fts: AsOfView = new SqliteAsOfView(
        {
          stmt: (sql) => o.store.stmt(sql),
          newsLagPubOverVis: o.store.newsLagPubOverVis,
          newsLagVisOverPub: o.store.newsLagVisOverPub,
        },
        () => now,
      );
      const enough = o.store.db.prepare(
        "SELECT count(*) AS c FROM (SELECT 1 FROM news_fts f JOIN news_order o ON o.seq = f.rowid WHERE news_fts MATCH @q" +
          " AND o.visible_at <= @now AND o.published_at <= @now AND o.published_at >= @from LIMIT @k)",
      );
      const opts = (q: Query) => (q.from === undefined ? { limit: K } : { from: q.from, limit: K });
      const relive = (q: Query) => {
        now = q.now;
        const s = process.hrtime.bigint();
        const r = view.news.search(q.q, opts(q));
        return { ms: Number(process.hrtime.bigint() - s) / 1e6, r };
      };
      const lanceRun = async (q: Query) => {
        const l = o.lance;
        if (!l || !lance) return null;
        const s = process.hrtime.bigint();
        const r = await lanceQuery(lance.lancedb, l.table, q);
        return { ms: Number(process.hrtime.bigint() - s) / 1e6, r };
      };
      // warm-up: other queries than the timed ones
      const w0 = performance.now();
      for (const q of warm) {
        relive(q);
        await lanceRun(q);
      }
      console.log(
        `${o.kind}: warm-up ${warm.length} queries per engine in ${((performance.now() - w0) / 1e3).toFixed(1)} s`,
      );
      for (let r = 0; r < runs; r++) {
        const acc = perRun[r] ?? new Map<string, Acc>();
        perRun[r] = acc;
        const set = timedSets[r] as Query[];
        for (let qi = 0; qi < set.length; qi++) {
          const q = set[qi] as Query;
          let a: { ms: number; r: ReturnType<AsOfView["news"]["search"]> };
          let l: { ms: number; r: Record<string, unknown>[] } | null;
          if (qi % 2 === 1) {
            l = await lanceRun(q);
            a = relive(q);
          } else {
            a = relive(q);
            l = await lanceRun(q);
          }
          const kk = key(o.kind, q);
          const e = acc.get(kk) ?? { rel: [], lan: [], relShort: 0, lanShort: 0, enough: 0, outside: 0 };
          acc.set(kk, e);
          e.rel.push(a.ms);
          if (l) {
            e.lan.push(l.ms);
            for (const h of l.r) {
              const p = Number(h.published_at);
              if (Number(h.visible_at) > q.now || p > q.now || (q.from !== undefined && p < q.from)) e.outside++;
            }
          }
          const expr = compileSearchQuery(q.q).primary ?? "";
          const avail = (enough.get({ q: expr, now: q.now, from: q.from ?? -1, k: K }) as { c: number }).c;
          if (avail >= K) {
            e.enough++;
            if (a.r.hits.length < K) e.relShort++;
            if (l && l.r.length < K) e.lanShort++;
          }
          // identity with the FTS5 statement (and its latency) on a sample of the first run
          if (r === 0 && qi % 4 === 0) {
            const id = identity.get(kk) ?? { checked: 0, mismatches: 0, fts: [] };
            identity.set(kk, id);
            now = q.now;
            const s = process.hrtime.bigint();
            const want = fts.news.search(q.q, opts(q));
            id.fts.push(Number(process.hrtime.bigint() - s) / 1e6);
            id.checked++;
            if (JSON.stringify(want) !== JSON.stringify(a.r)) id.mismatches++;
          }
        }
      }
    }

    // hybrid search (BM25 + vectors) on the exact world, as before
    const hybridWorld = opened.find((o) => o.kind === "exact");
    const hybrid =
      opts.hybrid === false || !hybridWorld
        ? null
        : measureHybrid({
            store: hybridWorld.store,
            queries: (timedSets[0] as Query[])
              .filter((q) => q.kind === "single")
              .map((q) => ({ band: q.band, term: q.q, now: q.now, ...(q.from === undefined ? {} : { from: q.from }) })),
            narrowTerms: byBand.get("<=1%") ?? [],
            bands: BANDS.map((x) => x.name),
            k: K,
            seed,
            buildStagesMs: ((builds.exact as BuildInfo | undefined)?.stages_ms ?? {}) as Record<string, number>,
          });

    // one table: per world, kind and band, medians over the runs of p50 / p99
    const rows: Record<string, unknown>[] = [];
    const lines: string[] = [];
    const header =
      "world   kind     band      rel p50  rel p99  lan p50  lan p99  p50 ×  p99 ×  fts5 p50  short r/l  ident";
    for (const o of opened) {
      for (const kind of KINDS) {
        for (const band of BANDS) {
          const kk = `${o.kind}|${kind}|${band.name}`;
          const accs = perRun.map((m) => m.get(kk)).filter((x): x is Acc => x !== undefined);
          if (accs.length === 0) continue;
          const p = (xs: number[], q: number) =>
            pct(
              [...xs].sort((x, y) => x - y),
              q,
            );
          const relP50 = median(accs.map((x) => p(x.rel, 0.5)));
          const relP99 = median(accs.map((x) => p(x.rel, 0.99)));
          const lanP50 = lance ? median(accs.map((x) => p(x.lan, 0.5))) : Number.NaN;
          const lanP99 = lance ? median(accs.map((x) => p(x.lan, 0.99))) : Number.NaN;
          const enough = accs.reduce((s, x) => s + x.enough, 0);
          const id = identity.get(kk);
          const row = {
            world: o.kind,
            kind,
            band: band.name,
            queries_per_run: (accs[0] as Acc).rel.length,
            runs: accs.length,
            relive_p50_ms: r3(relP50),
            relive_p99_ms: r3(relP99),
            relive_p50_ms_per_run: accs.map((x) => r3(p(x.rel, 0.5))),
            relive_p99_ms_per_run: accs.map((x) => r3(p(x.rel, 0.99))),
            lancedb_p50_ms: lance ? r3(lanP50) : null,
            lancedb_p99_ms: lance ? r3(lanP99) : null,
            lancedb_p50_ms_per_run: lance ? accs.map((x) => r3(p(x.lan, 0.5))) : null,
            lancedb_p99_ms_per_run: lance ? accs.map((x) => r3(p(x.lan, 0.99))) : null,
            lancedb_over_relive_p50: lance ? r3(lanP50 / relP50) : null,
            lancedb_over_relive_p99: lance ? r3(lanP99 / relP99) : null,
            queries_with_k_visible_matches: enough,
            relive_short_share: enough ? r3(accs.reduce((s, x) => s + x.relShort, 0) / enough) : 0,
            lancedb_short_share: lance && enough ? r3(accs.reduce((s, x) => s + x.lanShort, 0) / enough) : null,
            lancedb_hits_outside_date_bound: lance ? accs.reduce((s, x) => s + x.outside, 0) : null,
            fts5_statement_p50_ms: id ? r3(p(id.fts, 0.5)) : null,
            identity_checked: id?.checked ?? 0,
            identity_mismatches: id?.mismatches ?? 0,
          };
          rows.push(row);
          const f = (x: number | null, w = 8) => (x === null || Number.isNaN(x) ? "-" : x.toFixed(2)).padStart(w);
          lines.push(
            `${o.kind.padEnd(7)} ${kind.padEnd(8)} ${band.name.padEnd(7)} ${f(relP50)} ${f(relP99)} ${f(lance ? lanP50 : null)} ${f(lance ? lanP99 : null)} ${f(row.lancedb_over_relive_p50, 6)} ${f(row.lancedb_over_relive_p99, 6)} ${f(row.fts5_statement_p50_ms, 9)} ${`${row.relive_short_share}/${row.lancedb_short_share ?? "-"}`.padStart(10)} ${`${row.identity_mismatches}/${row.identity_checked}`.padStart(6)}`,
          );
        }
      }
    }
    const loadEnd = loadavg().map((x) => Number(x.toFixed(2)));
    console.log(
      `P2: ${n} articles, limit ${K}, ${runs} timed runs (medians of per-run p50/p99, ms); × = LanceDB / relive (> 1: relive faster; target ≥ 2); load average ${load0.join(" ")} → ${loadEnd.join(" ")}`,
    );
    console.log(header);
    for (const l of lines) console.log(l);
    if (hybrid) for (const l of hybrid.lines) console.log(l);
    const result = {
      bench: "p2-search",
      articles: n,
      seed,
      k: K,
      runs,
      cache_dir: cacheDir,
      load_average_at_start: load0,
      load_average_at_end: loadEnd,
      machine: { cpus: cpus().length, node: process.version },
      corpus:
        "synthetic: Zipf(s=1.07) over 100k words + 35% English stopwords; title 6-10 words, body 60-119 words; one year",
      worlds_note:
        "exact: visible_at = published_at; lagged: visible_at = published_at + U(-2 h, +2 h) (70%) or + 2 h (30%), the CC-NEWS publish clock",
      queries_note:
        "per band (df of the terms): single term, 2-term AND, 3-term OR, 2-word phrase from an article; random now, half with from = now - U(1,90) d; warm-up queries distinct from the timed ones; every timed run has its own queries",
      lancedb: lance
        ? {
            version: lance.version,
            lance_cpu_threads: Number(process.env.LANCE_CPU_THREADS),
            query:
              "query().fullTextSearch(MatchQuery(words, 'body', {operator: AND for and2, OR otherwise}) | PhraseQuery(words, 'body')).where('visible_at <= now AND published_at <= now [AND published_at >= from]').limit(10)",
          }
        : "not run: --no-lancedb",
      builds,
      page_cache_prewarm: prewarm,
      table: rows,
      hybrid: hybrid?.result ?? null,
    };
    mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
    writeFileSync(join(ROOT, "bench", "results", "p2-search.json"), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`wrote ${join(ROOT, "bench", "results", "p2-search.json")}`);
    return result;
  } finally {
    for (const o of opened) {
      o.lance?.close();
      o.store.close();
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const o = parseOpts(process.argv);
  try {
    await run(o);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
