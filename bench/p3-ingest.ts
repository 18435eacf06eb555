/**
 * P3: JSONL news ingest throughput and 1M-article world build time (spec/quality.md P3).
 *
 * Writes a deterministic 1M-line JSONL file (the synthetic corpus of bench/p2-search.ts: ids left
 * out so the importer derives them from the URL, ISO published_at, lines in generation order, which
 * is chronological with ±30 min jitter) plus a 200k-line file, then times `importNewsJsonl`
 * end to end (read, parse, validate, de-duplicate, insert, index, FTS build, rename): median of 3
 * runs on 200k and one 1M build. Run: `tsx bench/p3-ingest.ts [--articles N] [--vector-workers N] [--before FILE]`
 * (default 1,000,000 articles; `--vector-workers` only matters where the texts are embedded again:
 * the default hashing vectors are made by the news index worker from its words).
 *
 * Beside wall time (meaningless on a loaded machine) each import reports its CPU time: the whole
 * process (`process.cpuUsage`, every thread: main, the FTS worker, the news index worker, libuv and
 * GC helpers), the main thread alone (/proc/self/task/<pid>/stat), the other threads (the
 * difference), articles per CPU-second of the process and of the main thread, and the 1-minute
 * load average at its start.
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
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

/** CPU seconds (user + system) of the main thread (Linux /proc; null elsewhere). */
function mainThreadCpuSeconds(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // fields after the ")" of the command name: state is field 3, utime 14, stime 15 (clock ticks, 100 Hz on Linux)
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

interface ImportTiming {
  seconds: number;
  accepted: number;
  rejected: number;
  load_avg_1m: number;
  cpu_s: number;
  cpu_s_main: number | null;
  cpu_s_other_threads: number | null;
  articles_per_cpu_s: number;
  articles_per_main_cpu_s: number | null;
  /** per stage: wall and process CPU seconds; "load" = read + parse + validate + insert (+ streamed FTS/index feed), the rest are finish() stages */
  stages: Record<string, { wall_s: number; cpu_s: number }>;
}

async function timeImport(file: string, target: string, vectorWorkers: number | undefined): Promise<ImportTiming> {
  const load = loadavg()[0] as number;
  const c0 = process.cpuUsage();
  const m0 = mainThreadCpuSeconds();
  const t0 = process.hrtime.bigint();
  const res = await importNewsJsonl([file], target, {
    name: "p3",
    ...(vectorWorkers === undefined ? {} : { vectorWorkers }),
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  const m1 = mainThreadCpuSeconds();
  rmSync(target, { recursive: true, force: true });
  const cpu = (c.user + c.system) / 1e6;
  const main = m0 === null || m1 === null ? null : m1 - m0;
  const r2 = (x: number) => Number(x.toFixed(2));
  // finish() stages are the keys with a CPU figure (news_index_feed_overlapped is a sub-part, not a stage)
  const finishWall = Object.keys(res.stages.cpu_ms).reduce((a, k) => a + (res.stages.wall_ms[k] ?? 0), 0) / 1000;
  const finishCpu = Object.values(res.stages.cpu_ms).reduce((a, b) => a + b, 0) / 1000;
  const stages: ImportTiming["stages"] = { load: { wall_s: r2(seconds - finishWall), cpu_s: r2(cpu - finishCpu) } };
  for (const [k, ms] of Object.entries(res.stages.wall_ms)) {
    stages[k] = { wall_s: r2(ms / 1000), cpu_s: r2((res.stages.cpu_ms[k] ?? 0) / 1000) };
  }
  return {
    seconds: r2(seconds),
    accepted: res.accepted,
    rejected: res.rejected.length,
    load_avg_1m: r2(load),
    cpu_s: r2(cpu),
    cpu_s_main: main === null ? null : r2(main),
    cpu_s_other_threads: main === null ? null : r2(cpu - main),
    articles_per_cpu_s: Math.round(res.accepted / cpu),
    articles_per_main_cpu_s: main === null || main === 0 ? null : Math.round(res.accepted / main),
    stages,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

const describeStages = (r: ImportTiming) =>
  Object.entries(r.stages)
    .filter(([, v]) => v.wall_s >= 0.05 || v.cpu_s >= 0.05)
    .map(([k, v]) => `${k} ${v.wall_s.toFixed(2)}/${v.cpu_s.toFixed(2)}`)
    .join(", ");

const describeRun = (n: number, r: ImportTiming) =>
  `${n} articles: ${r.seconds.toFixed(2)} s wall = ${Math.round(n / r.seconds)} articles/s; CPU ${r.cpu_s.toFixed(2)} s ` +
  `(main ${r.cpu_s_main?.toFixed(2) ?? "?"} + other threads ${r.cpu_s_other_threads?.toFixed(2) ?? "?"}) = ` +
  `${r.articles_per_cpu_s} articles/CPU-s (${r.articles_per_main_cpu_s ?? "?"} per main-thread CPU-s); load ${r.load_avg_1m}\n` +
  `  stages (wall/CPU s): ${describeStages(r)}`;

export async function run(
  opts: { articles?: number; smallArticles?: number; keep?: boolean; vectorWorkers?: number } = {},
) {
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
    const runs: (ImportTiming & { articles_per_s: number })[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await timeImport(smallFile, join(work, `w-small-${i}`), opts.vectorWorkers);
      if (r.accepted !== small) throw new Error(`expected ${small} accepted, got ${r.accepted}`);
      runs.push({ ...r, articles_per_s: Math.round(small / r.seconds) });
      console.log(describeRun(small, r));
    }
    const bigRun = await timeImport(big, join(work, "w-big"), opts.vectorWorkers);
    if (bigRun.accepted !== n) throw new Error(`expected ${n} accepted, got ${bigRun.accepted}`);
    console.log(describeRun(n, bigRun));
    return {
      bench: "p3-ingest",
      what: "importNewsJsonl end to end: read + JSON.parse + zod + dedupe + insert + indexes + FTS5 build (worker thread) + optimize + news index and its hashing vectors (worker thread) + ANALYZE + rename",
      vector_workers: opts.vectorWorkers ?? "builder default",
      small: {
        articles: small,
        runs,
        median_articles_per_s: median(runs.map((r) => r.articles_per_s)),
        median_cpu_s: median(runs.map((r) => r.cpu_s)),
        median_cpu_s_main: median(runs.map((r) => r.cpu_s_main ?? Number.NaN)),
        median_articles_per_cpu_s: median(runs.map((r) => r.articles_per_cpu_s)),
        median_articles_per_main_cpu_s: median(runs.map((r) => r.articles_per_main_cpu_s ?? Number.NaN)),
        median_load_avg_1m: median(runs.map((r) => r.load_avg_1m)),
        median_stages: Object.fromEntries(
          Object.keys(runs[0]?.stages ?? {}).map((k) => [
            k,
            {
              wall_s: median(runs.map((r) => r.stages[k]?.wall_s ?? Number.NaN)),
              cpu_s: median(runs.map((r) => r.stages[k]?.cpu_s ?? Number.NaN)),
            },
          ]),
        ),
      },
      big: { articles: n, ...bigRun, articles_per_s: Math.round(n / bigRun.seconds) },
      bytes_per_article: Math.round(statSync(big).size / n),
      targets: { articles_per_s: 20_000, build_1m_seconds: 120 },
      machine: { cpus: cpus().length, node: process.version },
    };
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = (name: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : Number(process.argv[i + 1]);
  };
  const articles = flag("--articles");
  const vectorWorkers = flag("--vector-workers");
  const result: Record<string, unknown> = await run({
    ...(articles === undefined ? {} : { articles }),
    ...(vectorWorkers === undefined ? {} : { vectorWorkers }),
  });
  // --before FILE: a result of this bench on an earlier build, kept beside this one for comparison
  const b = process.argv.indexOf("--before");
  const beforeFile = b < 0 ? undefined : process.argv[b + 1];
  if (beforeFile !== undefined) result.before = JSON.parse(readFileSync(beforeFile, "utf8")) as unknown;
  const out = join(fileURLToPath(new URL(".", import.meta.url)), "results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "p3-ingest.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${join(out, "p3-ingest.json")}`);
}
