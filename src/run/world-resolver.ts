import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildCryptoSvbWorld } from "../ingest/crypto-world.js";
import { buildEdgarTeslaWorld, EDGAR_TESLA_BUILDER } from "../ingest/edgar-world.js";
import { forecastBenchBuilderFor } from "../ingest/forecastbench-sets.js";
import { ensureSynthWorld } from "../synth/synth-world.js";
import type { Episode } from "../tasks/task.js";
import { formatQuestionLint, readQuestionLint } from "../world/question-lint.js";
import { REAL_WORLD_DESCRIPTIONS } from "./real-world-names.js";

/**
 * Builders of real-data worlds named by episodes (`world: { kind: "real", builder }`). ForecastBench
 * sets are not listed: any `forecastbench-<due>[-human]` name resolves to the set of that due date
 * under the raw dir (`realWorldBuilder`).
 */
export const REAL_WORLD_BUILDERS: Record<string, { describe: string; build(rawDir: string, target: string): unknown }> =
  {
    "crypto-svb-2023": { describe: REAL_WORLD_DESCRIPTIONS["crypto-svb-2023"], build: buildCryptoSvbWorld },
    [EDGAR_TESLA_BUILDER]: { describe: REAL_WORLD_DESCRIPTIONS[EDGAR_TESLA_BUILDER], build: buildEdgarTeslaWorld },
  };

/** The builder of a real-data world name: a listed one, or any ForecastBench set by its due date. */
export function realWorldBuilder(
  name: string,
): { describe: string; build(rawDir: string, target: string): unknown } | null {
  return REAL_WORLD_BUILDERS[name] ?? forecastBenchBuilderFor(name);
}

export interface WorldLocation {
  cacheDir: string;
  /** where raw source files live (default: $RELIVE_RAW_DIR, else ../shared/data/raw) */
  rawDir?: string;
}

export const defaultRawDir = () => resolve(process.env.RELIVE_RAW_DIR ?? join("..", "shared", "data", "raw"));
export const realWorldDir = (cacheDir: string, builder: string) => join(cacheDir, "worlds", builder);

/** Builds (or finds in the cache) the real-data world of `builder`. */
export function ensureRealWorld(builder: string, loc: WorldLocation, log?: (msg: string) => void): string {
  const b = realWorldBuilder(builder);
  if (!b)
    throw new Error(
      `unknown world builder "${builder}"; known: ${Object.keys(REAL_WORLD_BUILDERS).join(", ")}, forecastbench-<due>[-human]`,
    );
  const dir = realWorldDir(loc.cacheDir, builder);
  if (existsSync(join(dir, "world.json"))) return dir;
  const raw = loc.rawDir ?? defaultRawDir();
  if (!existsSync(raw))
    throw new Error(
      `the ${builder} world is not built and its raw files were not found at ${raw}.\n` +
        `Point RELIVE_RAW_DIR (or --raw) at the folder holding the raw sample data, then run again (or \`relive data build ${builder} --raw DIR\`).`,
    );
  log?.(`building world ${builder} from ${raw} …`);
  b.build(raw, dir);
  const lint = readQuestionLint(dir);
  if (lint !== null) log?.(formatQuestionLint(lint));
  return dir;
}

/** The world directory of a run: an explicit dir, a real-data episode's world, or the synthetic world. */
export function resolveWorldDir(
  world: { seed: number } | { dir: string },
  episode: Episode,
  window: { start: number; end: number },
  loc: WorldLocation,
  log?: (msg: string) => void,
): string {
  if ("dir" in world) {
    const dir = resolve(world.dir);
    if (!existsSync(join(dir, "world.json")))
      throw new Error(
        `world.dir ${dir} holds no world.json: build a world there first (\`relive data build\` or \`relive data import\`)`,
      );
    return dir;
  }
  if (episode.world.kind === "real") return ensureRealWorld(episode.world.builder, loc, log);
  return ensureSynthWorld(join(loc.cacheDir, "synth"), { seed: world.seed, start: window.start, end: window.end }, log);
}
