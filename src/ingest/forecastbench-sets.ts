import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { FORECASTBENCH_DIR, type ForecastBenchFiles } from "./forecastbench.js";

/**
 * ForecastBench sets found by their file names, so any set of the datasets repository imports
 * with no code change: `<raw>/forecastbench/<due>-llm.json` (or `<due>-human.json`, the human
 * question set) beside `<due>_resolution_set.json`, named as worlds `forecastbench-<due>` (llm)
 * and `forecastbench-<due>-human`. `relive data pull forecastbench` writes exactly these names;
 * src/recipes/implicit-recipes.ts turns such a world name into a recipe when no recipe file names it.
 */

export type ForecastBenchKind = "llm" | "human";

export interface ForecastBenchSet extends ForecastBenchFiles {
  due: string;
  kind: ForecastBenchKind;
  /** the world builder name: `forecastbench-<due>` or `forecastbench-<due>-human` */
  builder: string;
}

const BUILDER = /^forecastbench-(\d{4}-\d{2}-\d{2})(-human)?$/;
const QUESTION_FILE = /^(\d{4}-\d{2}-\d{2})-(llm|human)\.json$/;

export const forecastBenchBuilderName = (due: string, kind: ForecastBenchKind = "llm") =>
  `forecastbench-${due}${kind === "human" ? "-human" : ""}`;

/** The question file name of a set as the datasets repository names it. */
export const questionSetFileName = (due: string, kind: ForecastBenchKind = "llm") => `${due}-${kind}.json`;
/** The resolution file name of a set as the datasets repository names it. */
export const resolutionSetFileName = (due: string) => `${due}_resolution_set.json`;

/** `forecastbench-<due>[-human]` → its due date and kind; null for any other name. */
export function parseForecastBenchBuilder(name: string): { due: string; kind: ForecastBenchKind } | null {
  const m = BUILDER.exec(name);
  if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`))) return null;
  return { due: m[1] as string, kind: m[2] ? "human" : "llm" };
}

/** The files of one set under a raw data dir (they may not exist). */
export function forecastBenchSetFiles(rawDir: string, due: string, kind: ForecastBenchKind = "llm"): ForecastBenchSet {
  return {
    due,
    kind,
    builder: forecastBenchBuilderName(due, kind),
    questionSet: join(rawDir, FORECASTBENCH_DIR, questionSetFileName(due, kind)),
    resolutionSet: join(rawDir, FORECASTBENCH_DIR, resolutionSetFileName(due)),
  };
}

/** Every complete set (question file + resolution file) under `<raw>/forecastbench/`, by due date then kind. */
export function listForecastBenchSets(rawDir: string): ForecastBenchSet[] {
  const dir = join(rawDir, FORECASTBENCH_DIR);
  if (!existsSync(dir)) return [];
  const names = new Set(readdirSync(dir));
  const out: ForecastBenchSet[] = [];
  for (const n of [...names].sort()) {
    const m = QUESTION_FILE.exec(n);
    if (!m || !names.has(resolutionSetFileName(m[1] as string))) continue;
    out.push(forecastBenchSetFiles(rawDir, m[1] as string, m[2] as ForecastBenchKind));
  }
  return out;
}
