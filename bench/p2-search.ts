/**
 * P2: as-of BM25 news search latency by term-frequency band (spec/quality.md P2).
 *
 * Synthesizes N articles deterministically (seeded PRNG; Zipfian vocabulary of synthetic words mixed
 * with English stopwords; published over one year), builds a world, then runs a fixed set of 1,000
 * single-term queries (250 per document-frequency band: ≤0.1%, ≤1%, ≤10%, >10% of documents, read
 * from the FTS index itself) with random `now` and optional `from` bounds, limit 10. Reports p50/p99
 * per band and the share of queries that returned fewer than k hits although ≥ k visible matches
 * exist. Run: `tsx bench/p2-search.ts [--articles N] [--no-lancedb]` (default 1,000,000).
 *
 * Side by side with LanceDB (spec P2): when the optional bench-only dependency `@lancedb/lancedb`
 * is installed (`npm i --no-save -E @lancedb/lancedb@0.31.0`; never in package.json), the same
 * corpus is loaded into a LanceDB table (id, title, body = title + text, published_at/visible_at as
 * int64) with a full-text index on body (simple tokenizer, lowercase, English stemming and stopword
 * removal: tantivy's English list, not the NLTK list relive strips, so only document lengths differ;
 * the query terms are never stopwords) and BTree indexes on the two date columns. The same queries
 * then run through `query().fullTextSearch(term).where(date bound).limit(k)`, which LanceDB applies
 * as a prefilter (the plan shows MatchQuery over a ScalarIndexQuery). The engines alternate per
 * query (which one goes first flips every query) so machine noise hits both alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { NewsRow } from "../src/world/types.js";
import { WorldBuilder } from "../src/world/world-builder.js";
import { WorldStore } from "../src/world/world-store.js";
import { measureHybrid } from "./p2-hybrid.js";

export const YEAR_MS = 365 * 24 * 3600 * 1000;
export const CORPUS_START = Date.UTC(2025, 0, 1);

/** How to enable the optional LanceDB comparison. */
export const LANCEDB_INSTALL = "npm i --no-save -E @lancedb/lancedb@0.31.0";

/** The slice of the @lancedb/lancedb 0.31 API this bench uses (typed locally: the package is optional). */
interface LanceQuery {
  fullTextSearch(q: string, opts?: { columns?: string | string[] }): LanceQuery;
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
    close(): void;
  }>;
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

function parseArticles(argv: string[]): number {
  const i = argv.indexOf("--articles");
  if (i < 0) return 1_000_000;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1000) throw new Error("--articles needs an integer ≥ 1000");
  return n;
}

function push(m: Map<string, number[]>, key: string, v: number): void {
  const a = m.get(key);
  if (a) a.push(v);
  else m.set(key, [v]);
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const BANDS = [
  { name: "<=0.1%", lo: 0, hi: 0.001 },
  { name: "<=1%", lo: 0.001, hi: 0.01 },
  { name: "<=10%", lo: 0.01, hi: 0.1 },
  { name: ">10%", lo: 0.1, hi: 1.01 },
] as const;

function parseLanceFlag(argv: string[]): boolean | undefined {
  if (argv.includes("--no-lancedb")) return false;
  if (argv.includes("--lancedb")) return true;
  return undefined;
}

type Query = { band: string; term: string; df: number; now: number; from?: number };

/** Loads the corpus into a LanceDB table and builds its indexes; timings exclude synthesizing. */
async function buildLance(
  lance: { lancedb: LanceModule; arrow: ArrowModule },
  dir: string,
  corpus: SyntheticNews,
): Promise<{ table: LanceTable; close: () => void; addS: number; ftsS: number; btreeS: number; synthS: number }> {
  const { lancedb, arrow } = lance;
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
  let genMs = 0;
  for (let i = 0; i < corpus.n; i += 100_000) {
    const g = performance.now();
    const rows = [...corpus.articles(i, Math.min(corpus.n, i + 100_000))].map((a) => ({
      id: a.id,
      title: a.title,
      body: `${a.title}\n${a.text}`,
      published_at: a.published_at,
      visible_at: a.visible_at,
    }));
    const a0 = performance.now();
    genMs += a0 - g;
    await table.add(rows);
    addMs += performance.now() - a0;
  }
  const f0 = performance.now();
  await table.createIndex("body", {
    config: lancedb.Index.fts({
      withPosition: true, // like FTS5, which keeps positions for phrase queries
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
  return {
    table,
    close: () => {
      table.close();
      db.close();
    },
    addS: addMs / 1e3,
    ftsS: ftsMs / 1e3,
    btreeS: btreeMs / 1e3,
    synthS: genMs / 1e3,
  };
}

const r3 = (x: number) => Number(x.toFixed(3));

export async function run(
  opts: { articles?: number; seed?: number; queriesPerBand?: number; keep?: boolean; lancedb?: boolean } = {},
) {
  const n = opts.articles ?? 1_000_000;
  const seed = opts.seed ?? 42;
  const perBand = opts.queriesPerBand ?? 250;
  const k = 10;
  const lance = opts.lancedb === false ? null : await loadLanceDb();
  if (opts.lancedb === true && lance === null) {
    throw new Error(`--lancedb: @lancedb/lancedb is not installed; install it with \`${LANCEDB_INSTALL}\``);
  }
  const work = mkdtempSync(join(tmpdir(), "relive-p2-"));
  const dir = join(work, "world");
  let lanceClose: (() => void) | undefined;
  try {
    const corpus = new SyntheticNews(n, seed);
    const t0 = process.hrtime.bigint();
    const b = WorldBuilder.create(dir, {
      name: `p2-synthetic-${n}`,
      window: { start: CORPUS_START - 3_600_000, end: CORPUS_START + YEAR_MS + 3_600_000 },
      builder: "bench/p2-search",
      builder_version: "1",
    });
    let genMs = 0;
    try {
      for (let i = 0; i < n; i += 20_000) {
        const g = performance.now();
        const batch = [...corpus.articles(i, Math.min(n, i + 20_000))];
        genMs += performance.now() - g;
        b.insert("news", batch);
      }
      b.finish();
    } catch (e) {
      b.abort();
      throw e;
    }
    const buildS = (Number(process.hrtime.bigint() - t0) / 1e6 - genMs) / 1e3;
    console.log(`built ${n} articles in ${buildS.toFixed(1)} s (+ ${(genMs / 1e3).toFixed(1)} s synthesizing them)`);

    // LanceDB is built after the SQLite world is finished, so the two builds never compete for the CPUs
    const lb = lance ? await buildLance(lance, join(work, "lancedb"), corpus) : null;
    if (lb) {
      lanceClose = lb.close;
      console.log(
        `LanceDB: added ${n} rows in ${lb.addS.toFixed(1)} s, FTS index ${lb.ftsS.toFixed(1)} s, date BTree indexes ${lb.btreeS.toFixed(1)} s (+ ${lb.synthS.toFixed(1)} s synthesizing)`,
      );
    }

    const store = WorldStore.open(dir);
    store.db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, news_fts, 'row')");
    const vocab = store.db.prepare("SELECT term, doc FROM temp.vocab").all() as { term: string; doc: number }[];
    const rand = mulberry32(seed ^ 0x9e3779b9);
    const queries: Query[] = [];
    for (const band of BANDS) {
      const terms = vocab.filter((v) => v.doc / n > band.lo && v.doc / n <= band.hi);
      for (let q = 0; q < perBand && terms.length > 0; q++) {
        const t = terms[Math.floor(rand() * terms.length)] as { term: string; doc: number };
        const now = CORPUS_START + 7 * 86_400_000 + Math.floor(rand() * (YEAR_MS - 7 * 86_400_000));
        const from = rand() < 0.5 ? now - Math.floor((1 + rand() * 89) * 86_400_000) : undefined;
        queries.push(
          from === undefined
            ? { band: band.name, term: t.term, df: t.doc, now }
            : { band: band.name, term: t.term, df: t.doc, now, from },
        );
      }
    }
    let now = 0;
    const view = store.at(() => now);
    // independent oracle for "≥ k visible matches exist": a join on visible_at/published_at, stopping at k
    const enough = store.db.prepare(
      "SELECT count(*) AS c FROM (SELECT 1 FROM news_fts f JOIN news_order o ON o.seq = f.rowid WHERE news_fts MATCH @q" +
        " AND o.visible_at <= @now AND o.published_at <= @now AND o.published_at >= @from LIMIT @k)",
    );
    const search = (q: Query) => {
      now = q.now;
      return view.news.search(q.term, q.from === undefined ? { limit: k } : { from: q.from, limit: k });
    };
    // the same as-of bound as relive's view (visible_at <= now, published_at in [from, now]), as a LanceDB prefilter
    const lanceSearch = (table: LanceTable, q: Query) =>
      table
        .query()
        .fullTextSearch(q.term, { columns: "body" })
        .where(
          `visible_at <= ${q.now} AND published_at <= ${q.now}${q.from === undefined ? "" : ` AND published_at >= ${q.from}`}`,
        )
        .select(["id", "title", "published_at", "visible_at", "_score"])
        .limit(k)
        .toArray();
    for (const q of queries) search(q); // warm-up pass (page cache, statement cache)
    if (lb) for (const q of queries) await lanceSearch(lb.table, q);

    type Stats = { lat: Map<string, number[]>; cpu: Map<string, number[]>; short: Map<string, number> };
    const mk = (): Stats => ({ lat: new Map(), cpu: new Map(), short: new Map() });
    const rel = mk();
    const lan = mk();
    const ratios = new Map<string, number[]>();
    const overlap = new Map<string, number[]>();
    const matches = new Map<string, number[]>();
    const enoughCount = new Map<string, number>();
    let lanceViolations = 0;
    const timeRelive = (q: Query) => {
      const c0 = process.cpuUsage();
      const s = process.hrtime.bigint();
      const r = search(q);
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      const c = process.cpuUsage(c0);
      push(rel.lat, q.band, ms);
      push(rel.cpu, q.band, (c.user + c.system) / 1000);
      return { ms, ids: r.hits.map((h) => h.id) };
    };
    const timeLance = async (table: LanceTable, q: Query) => {
      const c0 = process.cpuUsage();
      const s = process.hrtime.bigint();
      const r = await lanceSearch(table, q);
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      const c = process.cpuUsage(c0);
      push(lan.lat, q.band, ms);
      push(lan.cpu, q.band, (c.user + c.system) / 1000);
      for (const h of r) {
        const p = Number(h.published_at);
        if (Number(h.visible_at) > q.now || p > q.now || (q.from !== undefined && p < q.from)) lanceViolations++;
      }
      return { ms, ids: r.map((h) => String(h.id)) };
    };
    for (let qi = 0; qi < queries.length; qi++) {
      const q = queries[qi] as Query;
      let a: { ms: number; ids: string[] };
      let l: { ms: number; ids: string[] } | undefined;
      if (lb && qi % 2 === 1) {
        l = await timeLance(lb.table, q);
        a = timeRelive(q);
      } else {
        a = timeRelive(q);
        if (lb) l = await timeLance(lb.table, q);
      }
      const avail = (enough.get({ q: `"${q.term}"`, now: q.now, from: q.from ?? -1, k }) as { c: number }).c;
      if (avail >= k) {
        enoughCount.set(q.band, (enoughCount.get(q.band) ?? 0) + 1);
        if (a.ids.length < k) rel.short.set(q.band, (rel.short.get(q.band) ?? 0) + 1);
        if (l && l.ids.length < k) lan.short.set(q.band, (lan.short.get(q.band) ?? 0) + 1);
      }
      if (l) {
        push(ratios, q.band, a.ms / l.ms);
        const set = new Set(a.ids);
        const common = l.ids.filter((id) => set.has(id)).length;
        const denom = Math.max(a.ids.length, l.ids.length);
        push(overlap, q.band, denom === 0 ? 1 : common / denom);
      }
      push(matches, q.band, q.df);
    }
    // hybrid search (BM25 + vectors) on the same world and queries, side by side with BM25 alone
    const hybrid = measureHybrid({
      store,
      queries,
      narrowTerms: vocab.filter((v) => v.doc / n > 0.001 && v.doc / n <= 0.01).map((v) => v.term),
      bands: BANDS.map((x) => x.name),
      k,
      seed,
      buildStagesMs: b.finishTimings,
    });
    store.close();

    const summarize = (st: Stats, band: string) => {
      const l = [...(st.lat.get(band) ?? [])].sort((x, y) => x - y);
      const cl = [...(st.cpu.get(band) ?? [])].sort((x, y) => x - y);
      return {
        queries: l.length,
        p50_ms: r3(pct(l, 0.5)),
        p99_ms: r3(pct(l, 0.99)),
        cpu_p50_ms: r3(pct(cl, 0.5)),
        cpu_p99_ms: r3(pct(cl, 0.99)),
        max_ms: r3(l[l.length - 1] ?? Number.NaN),
        short_share: l.length ? (st.short.get(band) ?? 0) / l.length : 0,
      };
    };
    const bands: Record<string, unknown> = {};
    const lanceBands: Record<string, unknown> = {};
    const rows: string[] = [];
    const lrows: string[] = [];
    for (const band of BANDS) {
      const dfs = matches.get(band.name) ?? [];
      const rs = summarize(rel, band.name);
      const entry = {
        ...rs,
        median_doc_freq: dfs.length ? [...dfs].sort((x, y) => x - y)[Math.floor(dfs.length / 2)] : null,
        queries_with_k_visible_matches: enoughCount.get(band.name) ?? 0,
      };
      bands[band.name] = entry;
      rows.push(
        `${band.name.padEnd(8)} ${String(entry.queries).padStart(7)} ${entry.p50_ms.toFixed(2).padStart(9)} ${entry.p99_ms.toFixed(2).padStart(9)} ${entry.cpu_p50_ms.toFixed(2).padStart(9)} ${entry.cpu_p99_ms.toFixed(2).padStart(9)} ${String(entry.median_doc_freq).padStart(10)} ${entry.short_share.toFixed(4).padStart(8)}`,
      );
      if (lb) {
        const ls = summarize(lan, band.name);
        const rr = [...(ratios.get(band.name) ?? [])].sort((x, y) => x - y);
        const ov = overlap.get(band.name) ?? [];
        const le = {
          ...ls,
          relive_p50_ms: rs.p50_ms,
          relive_short_share: rs.short_share,
          ratio_of_p50: r3(rs.p50_ms / ls.p50_ms),
          ratio_of_p99: r3(rs.p99_ms / ls.p99_ms),
          median_per_query_ratio: r3(pct(rr, 0.5)),
          mean_top_k_overlap: r3(ov.reduce((x, y) => x + y, 0) / Math.max(1, ov.length)),
        };
        lanceBands[band.name] = le;
        lrows.push(
          `${band.name.padEnd(8)} ${rs.p50_ms.toFixed(2).padStart(9)} ${le.p50_ms.toFixed(2).padStart(9)} ${rs.p99_ms.toFixed(2).padStart(9)} ${le.p99_ms.toFixed(2).padStart(9)} ${le.ratio_of_p50.toFixed(2).padStart(8)} ${le.median_per_query_ratio.toFixed(2).padStart(8)} ${rs.short_share.toFixed(4).padStart(8)} ${le.short_share.toFixed(4).padStart(8)} ${le.mean_top_k_overlap.toFixed(2).padStart(8)}`,
        );
      }
    }
    console.log("relive (SQLite FTS5)");
    console.log("band     queries   p50 ms    p99 ms  cpu p50   cpu p99  median df    short");
    for (const r of rows) console.log(r);
    if (lb) {
      console.log(`relive vs LanceDB ${lance?.version} (ratio = relive / LanceDB; > 1: LanceDB faster)`);
      console.log("band     rel p50  lance p50   rel p99 lance p99 p50 ratio  q ratio rel short lan short  overlap");
      for (const r of lrows) console.log(r);
      if (lanceViolations > 0) console.log(`LanceDB returned ${lanceViolations} hits outside the date bound`);
    }
    for (const l of hybrid.lines) console.log(l);
    const lancedbResult = lb
      ? {
          version: lance?.version,
          lance_cpu_threads: Number(process.env.LANCE_CPU_THREADS),
          build_seconds: {
            add: r3(lb.addS),
            fts_index: r3(lb.ftsS),
            date_btree_indexes: r3(lb.btreeS),
            total: r3(lb.addS + lb.ftsS + lb.btreeS),
          },
          setup:
            "table (id, title, body = title + '\\n' + text, published_at int64, visible_at int64); Index.fts on body: simple tokenizer, lowercase, ascii folding, English stemming, English stopword removal (tantivy's list, relive strips the NLTK list: query terms are never stopwords, only document lengths differ), positions kept like FTS5; BTree indexes on visible_at and published_at",
          query:
            "query().fullTextSearch(term, {columns: 'body'}).where('visible_at <= now AND published_at <= now [AND published_at >= from]').select(id, title, published_at, visible_at, _score).limit(10): the filter is a prefilter (plan: MatchQuery over ScalarIndexQuery); relive also builds a snippet per hit",
          timing:
            "same process, same queries; the engine that runs first alternates per query; one warm-up pass each; LanceDB's cpu_* counts all its threads",
          ratio_note:
            "ratio_of_p50 = relive p50 / LanceDB p50; median_per_query_ratio = median over queries of relive ms / LanceDB ms; > 1 means LanceDB is faster",
          short_share_note:
            "share of the band's queries that returned fewer than k hits although SQLite (the reference) finds >= k visible matches",
          hits_outside_date_bound: lanceViolations,
          bands: lanceBands,
        }
      : opts.lancedb === false
        ? "not run: disabled (--no-lancedb)"
        : `not run: optional dependency not installed; enable with \`${LANCEDB_INSTALL}\` (not saved to package.json)`;
    const result = {
      bench: "p2-search",
      articles: n,
      seed,
      k,
      build_seconds: Number(buildS.toFixed(2)),
      build_stages_ms: b.finishTimings,
      load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
      latency_note:
        "p50/p99 are wall time per search call; cpu_* are the process CPU time of the same calls (robust to other load on the machine)",
      corpus:
        "synthetic: Zipf(s=1.07) over 100k words + 35% English stopwords; title 6-10 words, body 60-119 words; one year",
      queries:
        "single terms, 250 per document-frequency band, random now in the year, half with from = now - U(1,90) days",
      bands,
      targets: { "<=1%": { p50_ms: 5, p99_ms: 25 }, short_share: 0 },
      lancedb: lancedbResult,
      hybrid: hybrid.result,
      machine: { cpus: cpus().length, node: process.version },
    };
    return result;
  } finally {
    lanceClose?.();
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const lancedb = parseLanceFlag(process.argv);
  const result = await run(
    lancedb === undefined
      ? { articles: parseArticles(process.argv) }
      : { articles: parseArticles(process.argv), lancedb },
  );
  const out = join(fileURLToPath(new URL(".", import.meta.url)), "results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "p2-search.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${join(out, "p2-search.json")}`);
}
