import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { brokenFlags, type Results, ResultsSchema } from "../run/results.js";
import { type LedgerTail, readLedgerTail } from "./ledger-tail.js";
import type { RunEntry } from "./run-catalog.js";

/**
 * finished: results.json; failed: results.json with a flag saying the measurement is broken
 * (`provider_failed`, `failed_degenerate`, `world_mismatch`), or a run stopped by a provider failure
 * (its ledger ends with the `provider_failed` note): never badged finished; paused: checkpoint.json
 * or results.partial.json without results; running: none of these, and the ledger changed within
 * `RUNNING_WINDOW_MS` (wall time); incomplete: the ledger is older (interrupted: `relive resume`
 * continues it); empty: no ledger.
 */
export const RUN_STATUSES = ["finished", "failed", "paused", "running", "incomplete", "empty"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A ledger written to within this window (wall time) counts as a running run. */
export const RUNNING_WINDOW_MS = 60_000;

export interface Metric {
  name: string;
  value: number | null;
  direction: "higher" | "lower";
}

/** One row of the runs list. Fields a run does not (yet) record are null. */
export interface RunSummary {
  id: string;
  rel: string;
  root: string;
  run_id: string | null;
  task: string | null;
  episode: string | null;
  /** the agent: scripted:<policy>, provider:model or cassette:... */
  model: string | null;
  trigger: string | null;
  seed: number | null;
  sim_start: string | null;
  sim_end: string | null;
  status: RunStatus;
  primary: Metric | null;
  spent_usd: number | null;
  budget_usd: number | null;
  /** true flags of results.json (budget_exhausted, failed_degenerate, ...), plus "torn_ledger" */
  flags: string[];
  /** ledger lines written (last seq + 1), null without a ledger */
  events: number | null;
  /** simulated time of the last ledger line */
  last_t: string | null;
  /** day d of D from the latest daily brief (progress of unfinished runs) */
  day: number | null;
  days: number | null;
  /** files that could not be read or do not match their schema */
  problems: string[];
}

/** What the run page shows: the summary plus the parsed files. */
export interface RunDetails {
  summary: RunSummary;
  /** config.json as written (null when absent or unreadable) */
  config: unknown;
  /** results.json when it matches the published schema */
  results: Results | null;
  /** results.json or results.partial.json as read, when it does not match the schema (or is partial) */
  results_raw: unknown;
  tail: LedgerTail | null;
}

const ConfigFile = z.looseObject({
  config: z.looseObject({
    task: z.string().optional(),
    episode: z.string().optional(),
    seed: z.number().int().optional(),
    agent: z.looseObject({ model: z.string().optional(), trigger: z.string().optional() }).optional(),
  }),
  resolved: z
    .looseObject({
      episode: z.string().optional(),
      agent: z.string().optional(),
      sim_start: z.string().optional(),
      sim_end: z.string().optional(),
      budget_usd: z.number().optional(),
    })
    .optional(),
});

const MetricSchema = z.object({
  name: z.string(),
  value: z.number().nullable(),
  direction: z.enum(["higher", "lower"]),
});

/** The fields a partial or off-schema results file may still offer. */
const LooseResults = z.looseObject({
  run_id: z.string().optional(),
  performance: z.looseObject({ primary: MetricSchema.optional() }).optional(),
  resources: z.looseObject({ spent_usd: z.number().optional(), budget_usd: z.number().optional() }).optional(),
  flags: z.record(z.string(), z.unknown()).optional(),
});

function readJson(path: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    problems.push(`${path.split("/").pop()}: ${(err as Error).message}`);
    return undefined;
  }
}

const iso = (t: unknown) => (typeof t === "number" && Number.isFinite(t) ? new Date(t).toISOString() : null);
const numOrNull = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);

function stamp(dir: string): string {
  return ["config.json", "results.json", "results.partial.json", "checkpoint.json", "ledger.jsonl"]
    .map((f) => {
      try {
        const st = statSync(join(dir, f));
        return `${st.size}:${st.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

/** Reads a run directory's files (config.json, results, the ledger's head and tail). */
export async function readRunDetails(entry: RunEntry, now: number): Promise<RunDetails> {
  const dir = entry.dir;
  const problems: string[] = [];
  const cfgPath = join(dir, "config.json");
  const config = existsSync(cfgPath) ? readJson(cfgPath, problems) : undefined;
  const cfg = config === undefined ? null : ConfigFile.safeParse(config);
  if (cfg && !cfg.success) problems.push("config.json: not a run config (no config.task)");
  const c = cfg?.success ? cfg.data : null;

  const resultsPath = join(dir, "results.json");
  const partialPath = join(dir, "results.partial.json");
  let results: Results | null = null;
  let resultsRaw: unknown;
  if (existsSync(resultsPath)) {
    resultsRaw = readJson(resultsPath, problems);
    if (resultsRaw !== undefined) {
      const r = ResultsSchema.safeParse(resultsRaw);
      if (r.success) {
        results = r.data;
        resultsRaw = undefined;
      } else {
        const i = r.error.issues[0]!;
        problems.push(`results.json does not match the results schema: ${i.path.join(".") || "(root)"}: ${i.message}`);
      }
    }
  } else if (existsSync(partialPath)) resultsRaw = readJson(partialPath, problems);
  const loose = resultsRaw === undefined ? null : LooseResults.safeParse(resultsRaw);
  const lr = loose?.success ? loose.data : null;

  const ledgerPath = join(dir, "ledger.jsonl");
  let tail: LedgerTail | null = null;
  let ledgerMtime = 0;
  if (existsSync(ledgerPath)) {
    try {
      ledgerMtime = statSync(ledgerPath).mtimeMs;
      tail = await readLedgerTail(ledgerPath);
    } catch (err) {
      problems.push(`ledger.jsonl: ${(err as Error).message}`);
    }
  }
  const first = tail?.first ?? null;
  const start = first?.type === "run_start" ? first : null;

  let status: RunStatus;
  if (results !== null && brokenFlags(results).length > 0) status = "failed";
  else if (results !== null || (existsSync(resultsPath) && resultsRaw !== undefined)) status = "finished";
  else if (tail?.last?.type === "note" && tail.last.kind === "provider_failed") status = "failed";
  else if (existsSync(join(dir, "checkpoint.json")) || existsSync(partialPath)) status = "paused";
  else if (tail === null) status = "empty";
  else status = now - ledgerMtime <= RUNNING_WINDOW_MS ? "running" : "incomplete";

  const flags = Object.entries(results?.flags ?? lr?.flags ?? {})
    .filter(([, v]) => v === true)
    .map(([k]) => k);
  if (tail !== null && tail.torn_bytes > 0) flags.push("torn_ledger");
  const brief = tail?.brief ?? null;

  const summary: RunSummary = {
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
    budget_usd:
      results?.resources.budget_usd ??
      lr?.resources?.budget_usd ??
      c?.resolved?.budget_usd ??
      numOrNull(start?.budget_usd),
    flags,
    events: tail?.last ? tail.last.seq + 1 : tail ? 0 : null,
    last_t: iso(tail?.last?.t),
    day: numOrNull(brief?.day),
    days: numOrNull(brief?.days),
    problems,
  };
  return { summary, config: config ?? null, results, results_raw: resultsRaw ?? null, tail };
}

/** Run summaries cached by the sizes and mtimes of a run's files (the status is recomputed from wall time). */
export class RunSummaryCache {
  private readonly cache = new Map<string, { stamp: string; summary: RunSummary; ledgerMtime: number }>();

  async get(entry: RunEntry, now: number): Promise<RunSummary> {
    const s = stamp(entry.dir);
    const hit = this.cache.get(entry.dir);
    if (hit && hit.stamp === s && hit.summary.id === entry.id) {
      if (hit.summary.status === "running" || hit.summary.status === "incomplete")
        return {
          ...hit.summary,
          status: now - hit.ledgerMtime <= RUNNING_WINDOW_MS ? "running" : "incomplete",
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
