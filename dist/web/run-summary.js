import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ResultsSchema } from "../run/results.js";
import { readLedgerTail } from "./ledger-tail.js";
const RUN_STATUSES = ["finished", "paused", "running", "incomplete", "empty"];
const RUNNING_WINDOW_MS = 6e4;
const ConfigFile = z.looseObject({
  config: z.looseObject({
    task: z.string().optional(),
    episode: z.string().optional(),
    seed: z.number().int().optional(),
    agent: z.looseObject({ model: z.string().optional(), trigger: z.string().optional() }).optional()
  }),
  resolved: z.looseObject({
    episode: z.string().optional(),
    agent: z.string().optional(),
    sim_start: z.string().optional(),
    sim_end: z.string().optional(),
    budget_usd: z.number().optional()
  }).optional()
});
const MetricSchema = z.object({
  name: z.string(),
  value: z.number().nullable(),
  direction: z.enum(["higher", "lower"])
});
const LooseResults = z.looseObject({
  run_id: z.string().optional(),
  performance: z.looseObject({ primary: MetricSchema.optional() }).optional(),
  resources: z.looseObject({ spent_usd: z.number().optional(), budget_usd: z.number().optional() }).optional(),
  flags: z.record(z.string(), z.unknown()).optional()
});
function readJson(path, problems) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    problems.push(`${path.split("/").pop()}: ${err.message}`);
    return void 0;
  }
}
const iso = (t) => typeof t === "number" && Number.isFinite(t) ? new Date(t).toISOString() : null;
const numOrNull = (v) => typeof v === "number" && Number.isFinite(v) ? v : null;
const strOrNull = (v) => typeof v === "string" ? v : null;
function stamp(dir) {
  return ["config.json", "results.json", "results.partial.json", "checkpoint.json", "ledger.jsonl"].map((f) => {
    try {
      const st = statSync(join(dir, f));
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return "-";
    }
  }).join("|");
}
async function readRunDetails(entry, now) {
  const dir = entry.dir;
  const problems = [];
  const cfgPath = join(dir, "config.json");
  const config = existsSync(cfgPath) ? readJson(cfgPath, problems) : void 0;
  const cfg = config === void 0 ? null : ConfigFile.safeParse(config);
  if (cfg && !cfg.success) problems.push("config.json: not a run config (no config.task)");
  const c = cfg?.success ? cfg.data : null;
  const resultsPath = join(dir, "results.json");
  const partialPath = join(dir, "results.partial.json");
  let results = null;
  let resultsRaw;
  if (existsSync(resultsPath)) {
    resultsRaw = readJson(resultsPath, problems);
    if (resultsRaw !== void 0) {
      const r = ResultsSchema.safeParse(resultsRaw);
      if (r.success) {
        results = r.data;
        resultsRaw = void 0;
      } else {
        const i = r.error.issues[0];
        problems.push(`results.json does not match the results schema: ${i.path.join(".") || "(root)"}: ${i.message}`);
      }
    }
  } else if (existsSync(partialPath)) resultsRaw = readJson(partialPath, problems);
  const loose = resultsRaw === void 0 ? null : LooseResults.safeParse(resultsRaw);
  const lr = loose?.success ? loose.data : null;
  const ledgerPath = join(dir, "ledger.jsonl");
  let tail = null;
  let ledgerMtime = 0;
  if (existsSync(ledgerPath)) {
    try {
      ledgerMtime = statSync(ledgerPath).mtimeMs;
      tail = await readLedgerTail(ledgerPath);
    } catch (err) {
      problems.push(`ledger.jsonl: ${err.message}`);
    }
  }
  const first = tail?.first ?? null;
  const start = first?.type === "run_start" ? first : null;
  let status;
  if (results !== null || existsSync(resultsPath) && resultsRaw !== void 0) status = "finished";
  else if (existsSync(join(dir, "checkpoint.json")) || existsSync(partialPath)) status = "paused";
  else if (tail === null) status = "empty";
  else status = now - ledgerMtime <= RUNNING_WINDOW_MS ? "running" : "incomplete";
  const flags = Object.entries(results?.flags ?? lr?.flags ?? {}).filter(([, v]) => v === true).map(([k]) => k);
  if (tail !== null && tail.torn_bytes > 0) flags.push("torn_ledger");
  const brief = tail?.brief ?? null;
  const summary = {
    id: entry.id,
    rel: entry.rel,
    root: entry.root,
    run_id: results?.run_id ?? lr?.run_id ?? strOrNull(start?.run_id),
    task: results?.task ?? c?.config.task ?? strOrNull(start?.task),
    episode: results?.episode ?? c?.resolved?.episode ?? c?.config.episode ?? strOrNull(start?.episode),
    model: results?.agent ?? c?.resolved?.agent ?? c?.config.agent?.model ?? strOrNull(start?.agent),
    trigger: results?.trigger ?? c?.config.agent?.trigger ?? strOrNull(start?.trigger),
    seed: results?.seed ?? c?.config.seed ?? numOrNull(start?.seed),
    sim_start: results?.sim_start ?? c?.resolved?.sim_start ?? iso(start?.sim_start),
    sim_end: results?.sim_end ?? c?.resolved?.sim_end ?? iso(start?.sim_end),
    status,
    primary: results?.performance.primary ?? lr?.performance?.primary ?? null,
    spent_usd: results?.resources.spent_usd ?? lr?.resources?.spent_usd ?? numOrNull(brief?.spent_usd),
    budget_usd: results?.resources.budget_usd ?? lr?.resources?.budget_usd ?? c?.resolved?.budget_usd ?? numOrNull(start?.budget_usd),
    flags,
    events: tail?.last ? tail.last.seq + 1 : tail ? 0 : null,
    last_t: iso(tail?.last?.t),
    day: numOrNull(brief?.day),
    days: numOrNull(brief?.days),
    problems
  };
  return { summary, config: config ?? null, results, results_raw: resultsRaw ?? null, tail };
}
class RunSummaryCache {
  cache = /* @__PURE__ */ new Map();
  async get(entry, now) {
    const s = stamp(entry.dir);
    const hit = this.cache.get(entry.dir);
    if (hit && hit.stamp === s && hit.summary.id === entry.id) {
      if (hit.summary.status === "running" || hit.summary.status === "incomplete")
        return {
          ...hit.summary,
          status: now - hit.ledgerMtime <= RUNNING_WINDOW_MS ? "running" : "incomplete"
        };
      return hit.summary;
    }
    const { summary } = await readRunDetails(entry, now);
    let ledgerMtime = 0;
    try {
      ledgerMtime = statSync(join(entry.dir, "ledger.jsonl")).mtimeMs;
    } catch {
      ledgerMtime = 0;
    }
    this.cache.set(entry.dir, { stamp: s, summary, ledgerMtime });
    return summary;
  }
}
export {
  RUNNING_WINDOW_MS,
  RUN_STATUSES,
  RunSummaryCache,
  readRunDetails
};
//# sourceMappingURL=run-summary.js.map
