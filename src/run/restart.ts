import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { canonicalJson } from "../common/canonical-json.js";
import { isoInstant, parseUtcInstant } from "../common/time.js";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { recordedAuxEndpoints } from "./aux-models.js";
import { bestOfNOf } from "./best-of-n-config.js";
import { dayStart, episodeDays, readCheckpoint } from "./checkpoint.js";
import { ConfigError, RunConfigSchema, sha256 } from "./config.js";
import { prepareRunWorld } from "./prepare-run-world.js";
import { recordedEndpoint, resolveRun } from "./resolve-run.js";
import {
  planOfRestart,
  RESTART_SETTINGS,
  type RestartRecord,
  readRestartRecord,
  settingsPatchOf,
} from "./restart-record.js";
import { readResultsFile } from "./results.js";
import { assertSameCronGate, assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { executeStoppable, type RunOptions, type RunOutcome } from "./runner.js";
import { loadConfigTaskModule } from "./task-module.js";
import { loadConfigTriggerModule } from "./trigger-module.js";

export interface RestartOptions {
  /** the 1-based episode day the changed settings start (day 1 starts at sim_start) */
  fromDay: number;
  /** `key=value` changes by dotted run-config path (values are JSON where they parse, else strings) */
  set?: readonly string[];
}

/** Parses `--set key=value` items into dotted-path changes (a value is JSON where it parses, else a string). */
export function parseSetItems(items: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of items) {
    const i = kv.indexOf("=");
    if (i <= 0) throw new ConfigError(`--set ${JSON.stringify(kv)}: expected key=value (e.g. agent.temperature=0.7)`);
    const key = kv.slice(0, i).trim();
    const v = kv.slice(i + 1);
    let value: unknown = v;
    try {
      value = JSON.parse(v);
    } catch {
      // a plain string
    }
    if (!/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(key)) throw new ConfigError(`--set ${key}: not a dotted config path`);
    if (key in out) throw new ConfigError(`--set ${key}: given twice`);
    out[key] = value;
  }
  return out;
}

/** The changed config must pass the run-config schema; an unknown key is named by its full dotted path. */
function checkChangedConfig(changed: unknown): void {
  const parsed = RunConfigSchema.safeParse(changed);
  if (parsed.success) return;
  const lines = parsed.error.issues.flatMap((i) => {
    const at = i.path.join(".");
    if (i.code === "unrecognized_keys")
      return i.keys.map((k) => `  --set ${at ? `${at}.` : ""}${k}: not a run-config setting`);
    return [`  --set ${at || "(root)"}: ${i.message}`];
  });
  throw new ConfigError(`invalid restart settings:\n${lines.join("\n")}`);
}

/** A copy of `config` with `value` at dotted `path` (objects on the way are created). */
function withPath(config: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const parts = path.split(".");
  const root = structuredClone(config);
  let at: Record<string, unknown> = root;
  for (const p of parts.slice(0, -1)) {
    const next = at[p];
    if (next !== undefined && (typeof next !== "object" || next === null || Array.isArray(next)))
      throw new ConfigError(`--set ${path}: ${p} is not an object in the run config`);
    at[p] = next ?? {};
    at = at[p] as Record<string, unknown>;
  }
  at[parts.at(-1)!] = value;
  return root;
}

/**
 * `relive restart RUNDIR --from-day D [--set key=value ...]`: a new run beside the source, whose id
 * is a hash of the source run id, D and the changes. It re-runs the source deterministically up to
 * the start of day D (the source's ledger lines before that instant are verified line by line, its
 * model replies come from its llm.jsonl), then continues live with the changed settings. The
 * source must have finished or be paused at or after that day.
 */
export async function restartRun(sourceDir: string, ro: RestartOptions, o: RunOptions): Promise<RunOutcome> {
  const cfgPath = join(sourceDir, "config.json");
  if (!existsSync(cfgPath)) throw new ConfigError(`${sourceDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  const sourceRestart = readRestartRecord(cfgPath);
  await loadConfigTaskModule(saved.config);
  await loadConfigTriggerModule(saved.config);
  const endpoint = recordedEndpoint(saved as Parameters<typeof recordedEndpoint>[0]);
  const auxEndpoints = recordedAuxEndpoints(saved as Parameters<typeof recordedAuxEndpoints>[0]);
  await prepareRunWorld(saved.config, o);
  const source = resolveRun(saved.config, { ...o, endpoint, auxEndpoints });
  assertSameTaskModule(saved, source, sourceDir);
  assertSameCronGate(saved, source, sourceDir);
  const sourceRunId = sourceRestart?.run_id ?? source.runId;
  if (source.agent.kind === "external")
    throw new ConfigError(
      `${sourceDir}: an outside-agent run (${source.agentName}) cannot be re-run, so it cannot restart`,
    );

  if (bestOfNOf(source.config) !== null)
    throw new ConfigError(
      `${sourceDir}: a Best-of-N run's record is its survivor's; restart its branch (${sourceDir}/branches/b<k>) instead`,
    );

  const days = episodeDays(source.sim_start, source.sim_end);
  const D = ro.fromDay;
  if (!Number.isInteger(D) || D < 2 || D > days)
    throw new ConfigError(
      `--from-day ${D}: the episode has ${days} days; a restart starts on day 2..${days} (day 1 is a new run: \`relive run\`)`,
    );
  const at = dayStart(source.sim_start, D);

  // the changes: validated by the run-config schema, then by what can switch mid-episode
  const set = parseSetItems(ro.set ?? []);
  let changed: Record<string, unknown> = saved.config as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(set)) changed = withPath(changed, k, v);
  checkChangedConfig(changed);
  const patch = settingsPatchOf(set, source);
  if (patch.harness && source.learning.optimizer !== null)
    throw new ConfigError(
      `--set ${Object.keys(set).join(", ")}: ${sourceDir} runs the harness optimizer, which owns the instruction addendum and the tunable params; restart it without changing them`,
    );
  if (Object.keys(set).length && source.agent.kind !== "model")
    throw new ConfigError(
      `--set ${Object.keys(set).join(", ")}: model settings (${Object.keys(RESTART_SETTINGS).join(", ")}) apply to LLM agents; ${sourceDir} runs ${source.agentName}`,
    );

  // the source's record must reach the start of day D
  const finished = existsSync(join(sourceDir, "results.json"));
  const checkpoint = finished ? null : readCheckpoint(sourceDir);
  if (!finished && (checkpoint === null || (parseUtcInstant(checkpoint.paused_at) ?? 0) < at))
    throw new ConfigError(
      `${sourceDir}: its record does not reach the start of day ${D} (${isoInstant(at)}): ` +
        (checkpoint
          ? `it is paused after day ${checkpoint.paused_after_day}; resume it further first`
          : "it is neither finished nor paused (continue it with `relive resume`)"),
    );

  const runId = sha256(canonicalJson({ source_run_id: sourceRunId, from_day: D, set })).slice(0, 12);
  const runDir = join(dirname(sourceDir), `${runId}-s${saved.config.seed}`);
  if (existsSync(join(runDir, "results.json")))
    return { runDir, results: readResultsFile(join(runDir, "results.json")), cached: true };
  if (existsSync(runDir))
    throw new Error(
      `run directory ${runDir} exists without results (an interrupted restart): continue it with \`relive resume ${runDir}\``,
    );
  if (basename(runDir) === basename(sourceDir)) throw new Error(`internal: restart id equals the source's (${runId})`);

  // the re-run part: the source's lines before the start of day D, with this run's id in run_start
  const all = readLedgerLines(join(sourceDir, "ledger.jsonl"));
  const cut = all.findIndex((line) => (JSON.parse(line) as { t: number }).t >= at);
  const prefix = cut < 0 ? [...all] : all.slice(0, cut);
  const idField = `"run_id":${JSON.stringify(sourceRunId)}`;
  if (!prefix[0]?.includes(idField))
    throw new Error(`${sourceDir}/ledger.jsonl: its first line is not this run's run_start`);
  prefix[0] = prefix[0].replace(idField, `"run_id":${JSON.stringify(runId)}`);

  // the source's switches before day D made the re-run part; this restart adds its own
  const record: RestartRecord = {
    run_id: runId,
    source_run_id: sourceRunId,
    source_run_dir: sourceDir,
    from_day: D,
    switches: [
      ...(sourceRestart?.switches.filter((x) => x.from_day < D) ?? []),
      ...(Object.keys(set).length ? [{ from_day: D, switch_at: isoInstant(at), set }] : []),
    ],
  };
  const r = { ...source, runId, runDir };
  mkdirSync(join(runDir, "workspace"), { recursive: true });
  try {
    const raw = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
    writeJsonAtomic(join(runDir, "config.json"), { ...raw, restart: record });
    // the re-run part is written first and then verified line by line by the re-run (as on resume)
    LedgerWriter.create(join(runDir, "ledger.jsonl")).close();
    if (prefix.length) appendFileSync(join(runDir, "ledger.jsonl"), `${prefix.join("\n")}\n`);
    copyLlmPrefix(sourceDir, runDir, prefix);
  } catch (err) {
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  return { ...(await executeStoppable(r, prefix, o, planOfRestart(record, r))), cached: false };
}

/** Copies the source's llm.jsonl entries of the calls the re-run part answered (its `ok` llm_call lines). */
function copyLlmPrefix(sourceDir: string, runDir: string, prefix: readonly string[]): void {
  const src = join(sourceDir, "llm.jsonl");
  if (!existsSync(src)) return;
  const ok = new Set<string>();
  for (const line of prefix) {
    if (!line.includes('"llm_call"')) continue;
    const e = JSON.parse(line) as { type: string; actor: string; call_index: number; status: string };
    if (e.type === "llm_call" && e.status === "ok") ok.add(`${e.actor}\u0000${e.call_index}`);
  }
  const text = readFileSync(src, "utf8");
  const keep = text
    .split("\n")
    .filter((line) => {
      if (line.trim() === "") return false;
      try {
        const e = JSON.parse(line) as { actor: string; call_index: number };
        return ok.has(`${e.actor}\u0000${e.call_index}`);
      } catch {
        return false; // a torn last line
      }
    })
    .map((line) => `${line}\n`)
    .join("");
  writeFileSync(join(runDir, "llm.jsonl"), keep);
}

const writeJsonAtomic = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};
