/**
 * P3: JSONL news ingest throughput and 1M-article world build time (spec/quality.md P3).
 *
 * Writes a deterministic 1M-line JSONL file (the synthetic corpus of bench/p2-search.ts: ids left
 * out so the importer derives them from the URL, ISO published_at, lines in generation order, which
 * is chronological with ±30 min jitter) plus a 200k-line file, then times `importNewsJsonl`
 * end to end (read, parse, validate, de-duplicate, insert, index, FTS build, rename): median of 3
 * runs on 200k and one 1M build. Run: `tsx bench/p3-ingest.ts [--articles N]` (default 1,000,000).
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { importNewsJsonl } from "../src/ingest/news-jsonl.js";
import { SyntheticNews } from "./p2-search.js";

async function writeJsonl(corpus: SyntheticNews, files: { path: string; lines: number }[]): Promise<void> {
  const streams = files.map((f) => ({ ...f, ws: createWriteStream(f.path) }));
  const max = Math.max(...files.map((f) => f.lines));
  for (let i = 0; i < max; i += 10_000) {
    let chunk = "";
    for (let j = i; j < Math.min(max, i + 10_000); j++) {
      const a = corpus.article(j);
      chunk += `${JSON.stringify({ url: a.url, title: a.title, text: a.text, published_at: new Date(a.published_at).toISOString() })}\n`;
    }
    for (const s of streams) {
      if (i >= s.lines) continue;
      const part =
        i + 10_000 <= s.lines
          ? chunk
          : `${chunk
              .split("\n")
              .slice(0, s.lines - i)
              .join("\n")}\n`;
      if (!s.ws.write(part)) await new Promise<void>((r) => s.ws.once("drain", () => r()));
    }
  }
  await Promise.all(streams.map((s) => new Promise<void>((r, j) => s.ws.end((e?: Error | null) => (e ? j(e) : r())))));
}

async function timeImport(
  file: string,
  target: string,
): Promise<{ seconds: number; accepted: number; rejected: number }> {
  const t0 = process.hrtime.bigint();
  const res = await importNewsJsonl([file], target, { name: "p3" });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  rmSync(target, { recursive: true, force: true });
  return { seconds, accepted: res.accepted, rejected: res.rejected.length };
}

export async function run(opts: { articles?: number; smallArticles?: number; keep?: boolean } = {}) {
  const n = opts.articles ?? 1_000_000;
  const small = Math.min(n, opts.smallArticles ?? 200_000);
  const work = mkdtempSync(join(tmpdir(), "relive-p3-"));
  try {
    const big = join(work, "news-big.jsonl");
    const smallFile = join(work, "news-small.jsonl");
    const tw = process.hrtime.bigint();
    await writeJsonl(new SyntheticNews(n, 7), [
      { path: big, lines: n },
      { path: smallFile, lines: small },
    ]);
    console.log(
      `wrote ${n} lines (${(statSync(big).size / 2 ** 20).toFixed(0)} MiB) in ${(Number(process.hrtime.bigint() - tw) / 1e9).toFixed(1)} s`,
    );
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const r = await timeImport(smallFile, join(work, `w-small-${i}`));
      if (r.accepted !== small) throw new Error(`expected ${small} accepted, got ${r.accepted}`);
      runs.push({ ...r, articles_per_s: Math.round(small / r.seconds) });
      console.log(`${small} articles: ${r.seconds.toFixed(2)} s = ${Math.round(small / r.seconds)} articles/s`);
    }
    const rates = runs.map((r) => r.articles_per_s).sort((a, b) => a - b);
    const bigRun = await timeImport(big, join(work, "w-big"));
    if (bigRun.accepted !== n) throw new Error(`expected ${n} accepted, got ${bigRun.accepted}`);
    console.log(`${n} articles: ${bigRun.seconds.toFixed(1)} s = ${Math.round(n / bigRun.seconds)} articles/s`);
    return {
      bench: "p3-ingest",
      what: "importNewsJsonl end to end: read + JSON.parse + zod + dedupe + insert + indexes + FTS5 build + optimize + ANALYZE + rename",
      small: { articles: small, runs, median_articles_per_s: rates[1] },
      big: { articles: n, seconds: Number(bigRun.seconds.toFixed(2)), articles_per_s: Math.round(n / bigRun.seconds) },
      bytes_per_article: Math.round(statSync(big).size / n),
      targets: { articles_per_s: 20_000, build_1m_seconds: 120 },
      machine: { cpus: cpus().length, node: process.version },
    };
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--articles");
  const result = await run(i < 0 ? {} : { articles: Number(process.argv[i + 1]) });
  const out = join(fileURLToPath(new URL(".", import.meta.url)), "results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "p3-ingest.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${join(out, "p3-ingest.json")}`);
}
