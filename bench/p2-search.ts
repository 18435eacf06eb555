/**
 * P2: as-of BM25 news search latency by term-frequency band (spec/quality.md P2).
 *
 * Synthesizes N articles deterministically (seeded PRNG; Zipfian vocabulary of synthetic words mixed
 * with English stopwords; published over one year), builds a world, then runs a fixed set of 1,000
 * single-term queries (250 per document-frequency band: ≤0.1%, ≤1%, ≤10%, >10% of documents, read
 * from the FTS index itself) with random `now` and optional `from` bounds, limit 10. Reports p50/p99
 * per band and the share of queries that returned fewer than k hits although ≥ k visible matches
 * exist. Run: `tsx bench/p2-search.ts [--articles N]` (default 1,000,000).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { NewsRow } from "../src/world/types.js";
import { WorldBuilder } from "../src/world/world-builder.js";
import { WorldStore } from "../src/world/world-store.js";

export const YEAR_MS = 365 * 24 * 3600 * 1000;
export const CORPUS_START = Date.UTC(2025, 0, 1);

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

export async function run(opts: { articles?: number; seed?: number; queriesPerBand?: number; keep?: boolean } = {}) {
  const n = opts.articles ?? 1_000_000;
  const seed = opts.seed ?? 42;
  const perBand = opts.queriesPerBand ?? 250;
  const k = 10;
  const work = mkdtempSync(join(tmpdir(), "relive-p2-"));
  const dir = join(work, "world");
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

    const store = WorldStore.open(dir);
    store.db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, news_fts, 'row')");
    const vocab = store.db.prepare("SELECT term, doc FROM temp.vocab").all() as { term: string; doc: number }[];
    const rand = mulberry32(seed ^ 0x9e3779b9);
    const queries: { band: string; term: string; df: number; now: number; from?: number }[] = [];
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
    const search = (q: (typeof queries)[number]) => {
      now = q.now;
      return view.news.search(q.term, q.from === undefined ? { limit: k } : { from: q.from, limit: k });
    };
    for (const q of queries) search(q); // warm-up pass (page cache, statement cache)
    const lat = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    const short = new Map<string, number>();
    const matches = new Map<string, number[]>();
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const s = process.hrtime.bigint();
      const r = search(q);
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      const c = process.cpuUsage(c0);
      push(lat, q.band, ms);
      push(cpu, q.band, (c.user + c.system) / 1000);
      const avail = (enough.get({ q: `"${q.term}"`, now: q.now, from: q.from ?? -1, k }) as { c: number }).c;
      if (avail >= k && r.hits.length < k) short.set(q.band, (short.get(q.band) ?? 0) + 1);
      push(matches, q.band, q.df);
    }
    store.close();
    const bands: Record<string, unknown> = {};
    const rows: string[] = [];
    for (const band of BANDS) {
      const l = (lat.get(band.name) ?? []).sort((a, b) => a - b);
      const dfs = matches.get(band.name) ?? [];
      const cl = (cpu.get(band.name) ?? []).sort((a, b) => a - b);
      const entry = {
        queries: l.length,
        p50_ms: Number(pct(l, 0.5).toFixed(3)),
        p99_ms: Number(pct(l, 0.99).toFixed(3)),
        cpu_p50_ms: Number(pct(cl, 0.5).toFixed(3)),
        cpu_p99_ms: Number(pct(cl, 0.99).toFixed(3)),
        max_ms: Number((l[l.length - 1] ?? Number.NaN).toFixed(3)),
        median_doc_freq: dfs.length ? [...dfs].sort((a, b) => a - b)[Math.floor(dfs.length / 2)] : null,
        short_share: l.length ? (short.get(band.name) ?? 0) / l.length : 0,
      };
      bands[band.name] = entry;
      rows.push(
        `${band.name.padEnd(8)} ${String(entry.queries).padStart(7)} ${entry.p50_ms.toFixed(2).padStart(9)} ${entry.p99_ms.toFixed(2).padStart(9)} ${entry.cpu_p50_ms.toFixed(2).padStart(9)} ${entry.cpu_p99_ms.toFixed(2).padStart(9)} ${String(entry.median_doc_freq).padStart(10)} ${entry.short_share.toFixed(4).padStart(8)}`,
      );
    }
    console.log("band     queries   p50 ms    p99 ms  cpu p50   cpu p99  median df    short");
    for (const r of rows) console.log(r);
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
      lancedb: "not run: optional dependency not installed",
      machine: { cpus: cpus().length, node: process.version },
    };
    return result;
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await run({ articles: parseArticles(process.argv) });
  const out = join(fileURLToPath(new URL(".", import.meta.url)), "results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "p2-search.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${join(out, "p2-search.json")}`);
}
