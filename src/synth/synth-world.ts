import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { STREAM_KINDS, type StreamKind, type StreamRows } from "../world/row-schemas.js";
import type { WorldManifest } from "../world/types.js";
import { WORLD_JSON, WorldBuilder } from "../world/world-builder.js";
import { assertDigestCandidates, digestCandidateCounts } from "./digest-check.js";
import { GENERATOR_VERSION, generateRows, type SynthOptions, SynthOptionsSchema } from "./generate.js";
import { DAY } from "./time.js";

/** the `builder` field written into synthetic worlds' manifests */
export const SYNTH_BUILDER = "relive-synth";

function stamp(t: number): string {
  const iso = new Date(t).toISOString();
  if (t % DAY === 0) return iso.slice(0, 10);
  // not midnight-aligned: keep the time so different windows never share a directory
  return iso.replace(/[:.]/g, "").replace(/000Z$/, "Z");
}

/**
 * `${cacheDir}/synth-${GENERATOR_VERSION}-s${seed}-${startISOdate}-${endISOdate}`, plus
 * `-f${future.seed}@${from}` for a different-futures world
 */
export function synthWorldDir(cacheDir: string, o: SynthOptions): string {
  const opts = SynthOptionsSchema.parse(o);
  const future = opts.future ? `-f${opts.future.seed}@${stamp(opts.future.from)}` : "";
  return join(cacheDir, `synth-${GENERATOR_VERSION}-s${opts.seed}-${stamp(opts.start)}-${stamp(opts.end)}${future}`);
}

/** a complete world built by this generator version for this window, or null */
function readValidManifest(dir: string, o: SynthOptions): WorldManifest | null {
  const path = join(dir, WORLD_JSON);
  if (!existsSync(path)) return null;
  try {
    const m = JSON.parse(readFileSync(path, "utf8")) as WorldManifest;
    const ok =
      m.builder === SYNTH_BUILDER &&
      m.builder_version === GENERATOR_VERSION &&
      m.window?.start === o.start &&
      m.window?.end === o.end &&
      existsSync(join(dir, "world.db")) &&
      existsSync(join(dir, "truth.db"));
    return ok ? m : null;
  } catch {
    return null;
  }
}

/**
 * Returns the directory of the synthetic world for (generator version, seed, window), building it
 * when missing. A directory without a valid manifest of this generator version and window (stale
 * or partial) is deleted and rebuilt. Throws before writing anything when the generated rows
 * violate the daily-digest candidate requirement.
 */
export function ensureSynthWorld(cacheDir: string, o: SynthOptions, onProgress?: (msg: string) => void): string {
  const opts = SynthOptionsSchema.parse(o);
  const dir = synthWorldDir(cacheDir, opts);
  if (readValidManifest(dir, opts)) return dir;
  if (existsSync(dir)) {
    onProgress?.(`removing stale synthetic world ${dir}`);
    rmSync(dir, { recursive: true, force: true });
  }
  onProgress?.(`generating synthetic world (seed ${opts.seed})`);
  const rows = generateRows(opts);
  assertDigestCandidates(digestCandidateCounts(rows, opts.start, opts.end));
  const name = dir.slice(dir.lastIndexOf("/") + 1);
  const builder = WorldBuilder.create(dir, {
    name,
    window: { start: opts.start, end: opts.end },
    builder: SYNTH_BUILDER,
    builder_version: GENERATOR_VERSION,
  });
  try {
    for (const kind of STREAM_KINDS) {
      const n = insertStream(builder, kind, rows);
      onProgress?.(`inserted ${n} ${kind} rows`);
    }
    builder.insertTruth("breakpoint", rows.truth.breakpoint);
    builder.insertTruth("attribution", rows.truth.attribution);
    builder.insertTruth("question_answer", rows.truth.question_answer);
    builder.insertTruth("label", rows.truth.label);
    builder.finish();
  } catch (e) {
    builder.abort();
    throw e;
  }
  onProgress?.(`synthetic world ready at ${dir}`);
  return dir;
}

function insertStream<K extends StreamKind>(
  b: WorldBuilder,
  kind: K,
  rows: { [J in StreamKind]: StreamRows[J][] },
): number {
  return b.insert(kind, rows[kind]);
}
