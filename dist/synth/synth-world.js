import { existsSync, readFileSync, rmSync } from "node:fs";
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
  return join(cacheDir, `synth-${GENERATOR_VERSION}-s${opts.seed}-${stamp(opts.start)}-${stamp(opts.end)}`);
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
export {
  SYNTH_BUILDER,
  ensureSynthWorld,
  synthWorldDir
};
//# sourceMappingURL=synth-world.js.map
