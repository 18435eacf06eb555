import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { type Results, ResultsSchema } from "../run/results.js";
import { ReportInputError } from "./report-error.js";

/** The part of a run's config.json the report reads (written by the runner; see run/resolve-run.ts). */
export const RunConfigFileSchema = z.object({
  config: z.record(z.string(), z.unknown()),
  resolved: z
    .object({
      task_version: z.string(),
      scorer_version: z.string(),
      harness_version: z.string(),
      budget_usd: z.number(),
      task_params: z.unknown(),
    })
    .passthrough(),
});
export type RunConfigFile = z.infer<typeof RunConfigFileSchema>;

export interface LoadedRun {
  /** absolute run directory */
  dir: string;
  results: Results;
  config: RunConfigFile;
}

export interface SkippedRun {
  dir: string;
  reason: string;
}

export interface LoadedRuns {
  runs: LoadedRun[];
  /** run directories without results.json (unfinished or paused runs) */
  skipped: SkippedRun[];
}

/** Folders never searched for runs: agent workspaces and tooling. */
const SKIP_DIRS = new Set(["workspace", "node_modules"]);

const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 4)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ") + (e.issues.length > 4 ? `; … ${e.issues.length - 4} more` : "");

function readJson<T>(path: string, schema: z.ZodType<T>, problems: string[]): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    problems.push(`${path}: not valid JSON (${(err as Error).message})`);
    return null;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`${path}: ${issues(parsed.error)}`);
    return null;
  }
  return parsed.data;
}

/**
 * Finds run directories under the given paths (a run directory, a results.json, or any folder
 * holding runs at any depth), reads and validates every results.json (ResultsSchema) and
 * config.json. Bad files are collected and reported together, each named with what is wrong;
 * nothing is returned unless every file is valid. Directories with a config.json and a
 * ledger.jsonl but no results.json are unfinished runs: listed as skipped.
 */
export function loadRuns(paths: readonly string[]): LoadedRuns {
  if (paths.length === 0) throw new ReportInputError("no runs given: pass run directories or folders holding them");
  const runDirs: string[] = [];
  const skipped: SkippedRun[] = [];
  const seen = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    if (existsSync(join(dir, "results.json"))) {
      runDirs.push(resolve(dir));
      return;
    }
    if (existsSync(join(dir, "config.json")) && existsSync(join(dir, "ledger.jsonl"))) {
      skipped.push({
        dir: resolve(dir),
        reason: existsSync(join(dir, "results.partial.json"))
          ? "paused (results.partial.json only)"
          : "unfinished (no results.json)",
      });
      return;
    }
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const e of entries) {
      if (e.name.startsWith(".") || SKIP_DIRS.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory() || (e.isSymbolicLink() && statSync(p, { throwIfNoEntry: false })?.isDirectory())) walk(p);
    }
  };
  const missing: string[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) missing.push(abs);
    else if (st.isDirectory()) walk(abs);
    else if (basename(abs) === "results.json") walk(resolve(abs, ".."));
    else missing.push(`${abs} (not a directory or a results.json)`);
  }
  if (missing.length) throw new ReportInputError(`cannot read runs from: ${missing.join(", ")}`);
  if (runDirs.length === 0)
    throw new ReportInputError(
      `no finished runs (directories with results.json) under ${paths.map((p) => resolve(p)).join(", ")}` +
        (skipped.length ? ` (${skipped.length} unfinished run(s) skipped)` : ""),
    );

  const problems: string[] = [];
  const runs: LoadedRun[] = [];
  for (const dir of runDirs) {
    const results = readJson(join(dir, "results.json"), ResultsSchema, problems);
    const cfgPath = join(dir, "config.json");
    let config: RunConfigFile | null = null;
    if (existsSync(cfgPath)) config = readJson(cfgPath, RunConfigFileSchema, problems);
    else problems.push(`${cfgPath}: missing (every run directory needs the config.json the runner writes)`);
    if (results && config) {
      const cfgTask = config.config.task;
      if (cfgTask !== results.task)
        problems.push(`${dir}: results.json is for task ${results.task} but config.json for ${String(cfgTask)}`);
      // outcomes are validated but not kept: the report never reads them, and they are most of a
      // results.json's size (thousands of runs stay in memory at once)
      else runs.push({ dir, results: { ...results, outcomes: [] }, config });
    }
  }
  if (problems.length)
    throw new ReportInputError(
      `${problems.length} bad run file(s):\n${problems
        .slice(0, 20)
        .map((p) => `  ${p}`)
        .join("\n")}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ""}`,
    );
  return { runs, skipped };
}
