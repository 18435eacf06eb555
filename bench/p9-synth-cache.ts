/**
 * Synthetic-world cache (issue 12 §4): the build time of a 28-day world when a 56-day world of the
 * same seed and start is cached, against a fresh build in an empty cache, alternating, three times
 * each (medians, load average and process CPU time beside each). The generator is not
 * window-prefix-stable (src/synth/README.md "Window prefix stability"), so the covering world is
 * not reused and both builds generate; the bench checks the build said so. Also timed: generateRows
 * alone for the 28-day window (what a reuse that skipped generation could save at most: the
 * database build remains) and the reddit part of it (the only large window-prefix-stable stream).
 * `--days 28,56` sets the two spans, `--repeats N`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createRng } from "../src/common/random.js";
import { generateRows, HISTORY_MS } from "../src/synth/generate.js";
import { IdMinter } from "../src/synth/ids.js";
import { generateReddit } from "../src/synth/reddit.js";
import { ensureSynthWorld } from "../src/synth/synth-world.js";
import { isMain, median, writeResult } from "./stats.js";

const DAY = 86_400_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

interface Sample {
  wall_ms: number;
  cpu_ms: number;
  load1: number;
}

function timed(f: () => void): Sample {
  const load1 = loadavg()[0] as number;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall_ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return {
    wall_ms: Math.round(wall_ms),
    cpu_ms: Math.round((c.user + c.system) / 1000),
    load1: Number(load1.toFixed(2)),
  };
}

const summary = (xs: Sample[]) => ({
  median_wall_ms: median(xs.map((x) => x.wall_ms)),
  median_cpu_ms: median(xs.map((x) => x.cpu_ms)),
  load1: xs.map((x) => x.load1),
  samples: xs,
});

export function main(): void {
  const [short, long] = arg("--days", "28,56").split(",").map(Number) as [number, number];
  const repeats = Number(arg("--repeats", "3"));
  const seed = 42;
  const start = Date.parse("2026-03-01T00:00:00Z");
  const small = { seed, start, end: start + short * DAY };
  const root = mkdtempSync(join(tmpdir(), "relive-p9-"));
  try {
    const covered = join(root, "covered");
    const longBuild = timed(() => ensureSynthWorld(covered, { seed, start, end: start + long * DAY }));
    process.stdout.write(`${long}-day world built in ${longBuild.wall_ms} ms (load ${longBuild.load1})\n`);
    const withCovering: Sample[] = [];
    const fresh: Sample[] = [];
    const gen: Sample[] = [];
    const reddit: Sample[] = [];
    for (let i = 0; i < repeats; i++) {
      const msgs: string[] = [];
      let dir = "";
      withCovering.push(timed(() => (dir = ensureSynthWorld(covered, small, (m) => msgs.push(m)))));
      if (!msgs.some((m) => m.startsWith("not reusing cached ")))
        throw new Error(`the ${short}-day build did not report the covering world: ${msgs.join(" | ")}`);
      rmSync(dir, { recursive: true, force: true });
      const empty = join(root, `fresh-${i}`);
      fresh.push(timed(() => ensureSynthWorld(empty, small)));
      rmSync(empty, { recursive: true, force: true });
      gen.push(timed(() => generateRows(small)));
      reddit.push(
        timed(() => generateReddit(createRng(seed).split("reddit"), start - HISTORY_MS, small.end, new IdMinter(seed))),
      );
      process.stdout.write(
        `repeat ${i + 1}: with covering ${withCovering[i]?.wall_ms} ms, fresh ${fresh[i]?.wall_ms} ms, generateRows ${gen[i]?.wall_ms} ms, reddit ${reddit[i]?.wall_ms} ms (load ${fresh[i]?.load1})\n`,
      );
    }
    const result = {
      days: { short, long },
      repeats,
      long_build: longBuild,
      build_with_covering_world_cached: summary(withCovering),
      build_fresh: summary(fresh),
      generate_rows_only: summary(gen),
      reddit_generation_only: summary(reddit),
    };
    const path = writeResult("p9-synth-cache", result);
    process.stdout.write(
      `${short}-day world, ${long}-day covering world cached (not reused): median ${result.build_with_covering_world_cached.median_wall_ms} ms; ` +
        `fresh: median ${result.build_fresh.median_wall_ms} ms; generateRows alone ${result.generate_rows_only.median_wall_ms} ms ` +
        `(reddit ${result.reddit_generation_only.median_wall_ms} ms); load ${fresh.map((x) => x.load1).join(", ")} → ${path}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) main();
