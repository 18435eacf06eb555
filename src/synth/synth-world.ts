import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { markLastUse, pathBytes, pidAlive } from "../common/cache-upkeep.js";
import { STREAM_KINDS, type StreamKind, type StreamRows } from "../world/row-schemas.js";
import type { WorldManifest } from "../world/types.js";
import { WORLD_JSON, WorldBuilder, WorldDirAppearedError } from "../world/world-builder.js";
import { assertDigestCandidates, digestCandidateCounts } from "./digest-check.js";
import { FUTURE_VERSION, GENERATOR_VERSION, generateRows, type SynthOptions, SynthOptionsSchema } from "./generate.js";
import { DAY } from "./time.js";
import { windowPrefixUnstable } from "./window-prefix.js";

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
 * `-f${FUTURE_VERSION}.${future.seed}@${from}` for a different-futures world (FUTURE_VERSION counts
 * changes of what a future re-draws; the ordinary world does not change with it)
 */
export function synthWorldDir(cacheDir: string, o: SynthOptions): string {
  const opts = SynthOptionsSchema.parse(o);
  const future = opts.future ? `-f${FUTURE_VERSION}.${opts.future.seed}@${stamp(opts.future.from)}` : "";
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
  if (readValidManifest(dir, opts)) {
    markLastUse(join(dir, WORLD_JSON));
    return dir;
  }
  for (const t of removeStaleSynthTemps(cacheDir)) onProgress?.(`removed ${t.path} (left by killed build ${t.pid})`);
  if (existsSync(dir)) {
    onProgress?.(`removing stale synthetic world ${dir}`);
    rmSync(dir, { recursive: true, force: true });
  }
  const covering = opts.future === undefined ? coveringSynthWorlds(cacheDir, opts) : [];
  if (covering.length) onProgress?.(notReusedMessage(covering[0] as string));
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
    // another process (a parallel run on the same cache) finished the same world first: same generator
    // version and options, so the same rows (determinism); use it rather than fail
    if (e instanceof WorldDirAppearedError && readValidManifest(dir, opts)) {
      onProgress?.(`synthetic world ready at ${dir} (built meanwhile by another process)`);
      return dir;
    }
    throw e;
  }
  onProgress?.(`synthetic world ready at ${dir}`);
  return dir;
}

/**
 * Complete cached worlds of this generator version, seed and start whose window ends after the
 * requested one (an ordinary world, no future): the worlds a prefix-stable generator could derive
 * the requested one from. Shortest window first.
 */
export function coveringSynthWorlds(cacheDir: string, o: SynthOptions): string[] {
  const opts = SynthOptionsSchema.parse(o);
  if (opts.future !== undefined || !existsSync(cacheDir)) return [];
  const prefix = `synth-${GENERATOR_VERSION}-s${opts.seed}-${stamp(opts.start)}-`;
  const found: { dir: string; end: number }[] = [];
  for (const name of readdirSync(cacheDir).sort()) {
    if (!name.startsWith(prefix) || TEMP_RE.test(name) || name.includes("-f")) continue;
    const dir = join(cacheDir, name);
    const m = readManifest(dir);
    if (m === null || m.window.start !== opts.start || !(m.window.end > opts.end)) continue;
    if (readValidManifest(dir, { ...opts, end: m.window.end })) found.push({ dir, end: m.window.end });
  }
  return found.sort((a, b) => a.end - b.end).map((f) => f.dir);
}

function readManifest(dir: string): WorldManifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, WORLD_JSON), "utf8")) as WorldManifest;
  } catch {
    return null;
  }
}

/**
 * Why a covering cached world is not used for the requested window: the generator is not
 * window-prefix-stable (window-prefix.ts, README "Window prefix stability"), so a slice of it would
 * differ from a fresh build; the world is generated anew.
 */
function notReusedMessage(covering: string): string {
  const unstable = windowPrefixUnstable();
  const why = unstable.length
    ? `the generator (${GENERATOR_VERSION}) is not window-prefix-stable for ${unstable.map((u) => u.kind).join(", ")}`
    : "deriving a world from a covering one is not implemented";
  return `not reusing cached ${covering} (its window contains this one): ${why}; see src/synth/README.md "Window prefix stability"`;
}

function insertStream<K extends StreamKind>(
  b: WorldBuilder,
  kind: K,
  rows: { [J in StreamKind]: StreamRows[J][] },
): number {
  return b.insert(kind, rows[kind]);
}

/** `<world dir>.tmp-<pid>`: where WorldBuilder builds before its atomic rename */
const TEMP_RE = /^(synth-.+)\.tmp-(\d+)$/;

/**
 * Removes the temp build directories of synthetic worlds whose building process is gone (a
 * killed build leaves `synth-….tmp-<pid>`). Directories of live processes on this host are kept.
 * A cache shared by several machines can hold temps of processes running elsewhere: run
 * `relive data gc` there only when no other machine builds.
 */
export function removeStaleSynthTemps(cacheDir: string): { path: string; pid: number; bytes: number }[] {
  if (!existsSync(cacheDir)) return [];
  const out: { path: string; pid: number; bytes: number }[] = [];
  for (const name of readdirSync(cacheDir).sort()) {
    const m = TEMP_RE.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || pidAlive(pid)) continue;
    const path = join(cacheDir, name);
    const bytes = pathBytes(path);
    rmSync(path, { recursive: true, force: true });
    out.push({ path, pid, bytes });
  }
  return out;
}

export interface SynthGcReport {
  /** evicted worlds, least recently used first, and removed temp dirs of killed builds */
  removed: { path: string; bytes: number; last_used: string | null; kind: "world" | "temp" }[];
  kept: string[];
  freed_bytes: number;
}

/**
 * Evicts cached synthetic worlds of `cacheDir`, least recently used first (last use = world.json's
 * mtime, refreshed on every cache hit), keeping the `keep` most recently used; also removes the
 * temp dirs of killed builds and world directories without a manifest (partial). A world is
 * rebuilt on its next use, so eviction never changes a result.
 */
export function gcSynthWorlds(cacheDir: string, keep: number): SynthGcReport {
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep: expected a non-negative integer, got ${keep}`);
  const removed: SynthGcReport["removed"] = removeStaleSynthTemps(cacheDir).map((t) => ({
    path: t.path,
    bytes: t.bytes,
    last_used: null,
    kind: "temp" as const,
  }));
  const worlds: { path: string; used: number }[] = [];
  if (existsSync(cacheDir))
    for (const name of readdirSync(cacheDir).sort()) {
      if (!name.startsWith("synth-") || TEMP_RE.test(name)) continue;
      const path = join(cacheDir, name);
      if (!lstatSync(path).isDirectory()) continue;
      const manifest = lstatSync(join(path, WORLD_JSON), { throwIfNoEntry: false });
      worlds.push({ path, used: manifest ? manifest.mtimeMs : Number.NEGATIVE_INFINITY });
    }
  // most recently used first; ties by path so the order never depends on readdir
  worlds.sort((a, b) => b.used - a.used || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kept = worlds.slice(0, keep).filter((w) => w.used !== Number.NEGATIVE_INFINITY);
  const evict = worlds.filter((w) => !kept.includes(w)).reverse();
  for (const w of evict) {
    const bytes = pathBytes(w.path);
    rmSync(w.path, { recursive: true, force: true });
    removed.push({
      path: w.path,
      bytes,
      last_used: w.used === Number.NEGATIVE_INFINITY ? null : new Date(w.used).toISOString(),
      kind: "world",
    });
  }
  return { removed, kept: kept.map((w) => w.path), freed_bytes: removed.reduce((s, r) => s + r.bytes, 0) };
}
