import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { ResultsSchema } from "../run/results.js";
import { ReportInputError } from "./report-error.js";
const RunConfigFileSchema = z.object({
  config: z.record(z.string(), z.unknown()),
  resolved: z.object({
    task_version: z.string(),
    scorer_version: z.string(),
    harness_version: z.string(),
    budget_usd: z.number(),
    task_params: z.unknown()
  }).passthrough()
});
const SKIP_DIRS = /* @__PURE__ */ new Set(["workspace", "node_modules"]);
const issues = (e) => e.issues.slice(0, 4).map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`).join("; ") + (e.issues.length > 4 ? `; \u2026 ${e.issues.length - 4} more` : "");
function readJson(path, schema, problems) {
  let raw;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    problems.push(`${path}: not valid JSON (${err.message})`);
    return null;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`${path}: ${issues(parsed.error)}`);
    return null;
  }
  return parsed.data;
}
function loadRuns(paths) {
  if (paths.length === 0) throw new ReportInputError("no runs given: pass run directories or folders holding them");
  const runDirs = [];
  const skipped = [];
  const seen = /* @__PURE__ */ new Set();
  const walk = (dir) => {
    let real;
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
        reason: existsSync(join(dir, "results.partial.json")) ? "paused (results.partial.json only)" : "unfinished (no results.json)"
      });
      return;
    }
    const entries = readdirSync(dir, { withFileTypes: true }).sort(
      (a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    );
    for (const e of entries) {
      if (e.name.startsWith(".") || SKIP_DIRS.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory() || e.isSymbolicLink() && statSync(p, { throwIfNoEntry: false })?.isDirectory()) walk(p);
    }
  };
  const missing = [];
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
      `no finished runs (directories with results.json) under ${paths.map((p) => resolve(p)).join(", ")}` + (skipped.length ? ` (${skipped.length} unfinished run(s) skipped)` : "")
    );
  const problems = [];
  const runs = [];
  for (const dir of runDirs) {
    const results = readJson(join(dir, "results.json"), ResultsSchema, problems);
    const cfgPath = join(dir, "config.json");
    let config = null;
    if (existsSync(cfgPath)) config = readJson(cfgPath, RunConfigFileSchema, problems);
    else problems.push(`${cfgPath}: missing (every run directory needs the config.json the runner writes)`);
    if (results && config) {
      const cfgTask = config.config.task;
      if (cfgTask !== results.task)
        problems.push(`${dir}: results.json is for task ${results.task} but config.json for ${String(cfgTask)}`);
      else runs.push({ dir, results: { ...results, outcomes: [] }, config });
    }
  }
  if (problems.length)
    throw new ReportInputError(
      `${problems.length} bad run file(s):
${problems.slice(0, 20).map((p) => `  ${p}`).join("\n")}${problems.length > 20 ? `
  \u2026 and ${problems.length - 20} more` : ""}`
    );
  return { runs, skipped };
}
export {
  RunConfigFileSchema,
  loadRuns
};
//# sourceMappingURL=load-runs.js.map
