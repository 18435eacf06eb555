import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { STREAM_KINDS } from "../world/row-schemas.js";
import { WORLD_JSON, WorldBuilder } from "../world/world-builder.js";
import { assertDigestCandidates, digestCandidateCounts } from "./digest-check.js";
import { GENERATOR_VERSION, generateRows, SynthOptionsSchema } from "./generate.js";
import { DAY } from "./time.js";
const SYNTH_BUILDER = "relive-synth";
function stamp(t) {
  const iso = new Date(t).toISOString();
  if (t % DAY === 0) return iso.slice(0, 10);
  return iso.replace(/[:.]/g, "").replace(/000Z$/, "Z");
}
function synthWorldDir(cacheDir, o) {
  const opts = SynthOptionsSchema.parse(o);
  const future = opts.future ? `-f${opts.future.seed}@${stamp(opts.future.from)}` : "";
  return join(cacheDir, `synth-${GENERATOR_VERSION}-s${opts.seed}-${stamp(opts.start)}-${stamp(opts.end)}${future}`);
}
function readValidManifest(dir, o) {
  const path = join(dir, WORLD_JSON);
  if (!existsSync(path)) return null;
  try {
    const m = JSON.parse(readFileSync(path, "utf8"));
    const ok = m.builder === SYNTH_BUILDER && m.builder_version === GENERATOR_VERSION && m.window?.start === o.start && m.window?.end === o.end && existsSync(join(dir, "world.db")) && existsSync(join(dir, "truth.db"));
    return ok ? m : null;
  } catch {
    return null;
  }
}
function ensureSynthWorld(cacheDir, o, onProgress) {
  const opts = SynthOptionsSchema.parse(o);
  const dir = synthWorldDir(cacheDir, opts);
  if (readValidManifest(dir, opts)) {
    markUsed(dir);
    return dir;
  }
  for (const t of removeStaleSynthTemps(cacheDir)) onProgress?.(`removed ${t.path} (left by killed build ${t.pid})`);
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
    builder_version: GENERATOR_VERSION
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
function insertStream(b, kind, rows) {
  return b.insert(kind, rows[kind]);
}
const TEMP_RE = /^(synth-.+)\.tmp-(\d+)$/;
function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}
function pathBytes(path) {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(path)) n += pathBytes(join(path, e));
  return n;
}
function removeStaleSynthTemps(cacheDir) {
  if (!existsSync(cacheDir)) return [];
  const out = [];
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
function markUsed(dir) {
  const now = /* @__PURE__ */ new Date();
  try {
    utimesSync(join(dir, WORLD_JSON), now, now);
  } catch {
  }
}
function gcSynthWorlds(cacheDir, keep) {
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep: expected a non-negative integer, got ${keep}`);
  const removed = removeStaleSynthTemps(cacheDir).map((t) => ({
    path: t.path,
    bytes: t.bytes,
    last_used: null,
    kind: "temp"
  }));
  const worlds = [];
  if (existsSync(cacheDir))
    for (const name of readdirSync(cacheDir).sort()) {
      if (!name.startsWith("synth-") || TEMP_RE.test(name)) continue;
      const path = join(cacheDir, name);
      if (!lstatSync(path).isDirectory()) continue;
      const manifest = lstatSync(join(path, WORLD_JSON), { throwIfNoEntry: false });
      worlds.push({ path, used: manifest ? manifest.mtimeMs : Number.NEGATIVE_INFINITY });
    }
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
      kind: "world"
    });
  }
  return { removed, kept: kept.map((w) => w.path), freed_bytes: removed.reduce((s, r) => s + r.bytes, 0) };
}
export {
  SYNTH_BUILDER,
  ensureSynthWorld,
  gcSynthWorlds,
  pathBytes,
  removeStaleSynthTemps,
  synthWorldDir
};
//# sourceMappingURL=synth-world.js.map
