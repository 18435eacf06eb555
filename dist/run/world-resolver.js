import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildCryptoSvbWorld } from "../ingest/crypto-world.js";
import { buildEdgarTeslaWorld, EDGAR_TESLA_BUILDER } from "../ingest/edgar-world.js";
import { forecastBenchBuilderFor } from "../ingest/forecastbench-sets.js";
import { ensureSynthWorld } from "../synth/synth-world.js";
import { formatQuestionLint, readQuestionLint } from "../world/question-lint.js";
import { REAL_WORLD_DESCRIPTIONS } from "./real-world-names.js";
const REAL_WORLD_BUILDERS = {
  "crypto-svb-2023": { describe: REAL_WORLD_DESCRIPTIONS["crypto-svb-2023"], build: buildCryptoSvbWorld },
  [EDGAR_TESLA_BUILDER]: { describe: REAL_WORLD_DESCRIPTIONS[EDGAR_TESLA_BUILDER], build: buildEdgarTeslaWorld }
};
function realWorldBuilder(name) {
  return REAL_WORLD_BUILDERS[name] ?? forecastBenchBuilderFor(name);
}
const defaultRawDir = () => resolve(process.env.RELIVE_RAW_DIR ?? join("..", "shared", "data", "raw"));
const realWorldDir = (cacheDir, builder) => join(cacheDir, "worlds", builder);
function ensureRealWorld(builder, loc, log) {
  const b = realWorldBuilder(builder);
  if (!b)
    throw new Error(
      `unknown world builder "${builder}"; known: ${Object.keys(REAL_WORLD_BUILDERS).join(", ")}, forecastbench-<due>[-human]`
    );
  const dir = realWorldDir(loc.cacheDir, builder);
  if (existsSync(join(dir, "world.json"))) return dir;
  const raw = loc.rawDir ?? defaultRawDir();
  if (!existsSync(raw))
    throw new Error(
      `the ${builder} world is not built and its raw files were not found at ${raw}.
Point RELIVE_RAW_DIR (or --raw) at the folder holding the raw sample data, then run again (or \`relive data build ${builder} --raw DIR\`).`
    );
  log?.(`building world ${builder} from ${raw} \u2026`);
  b.build(raw, dir);
  const lint = readQuestionLint(dir);
  if (lint !== null) log?.(formatQuestionLint(lint));
  return dir;
}
function resolveWorldDir(world, episode, window, loc, log) {
  if ("dir" in world) {
    const dir = resolve(world.dir);
    if (!existsSync(join(dir, "world.json")))
      throw new Error(
        `world.dir ${dir} holds no world.json: build a world there first (\`relive data build\` or \`relive data import\`)`
      );
    return dir;
  }
  if (episode.world.kind === "real") return ensureRealWorld(episode.world.builder, loc, log);
  return ensureSynthWorld(join(loc.cacheDir, "synth"), { seed: world.seed, start: window.start, end: window.end }, log);
}
export {
  REAL_WORLD_BUILDERS,
  defaultRawDir,
  ensureRealWorld,
  realWorldBuilder,
  realWorldDir,
  resolveWorldDir
};
//# sourceMappingURL=world-resolver.js.map
