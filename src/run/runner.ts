import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import type { ExternalActorFactory } from "../mcp/external-actor.js";
import type { CallContext, GenerateRequest } from "../models/model.js";
import { buildResults } from "./build-results.js";
import type { RunConfig } from "./config.js";
import { feedbackTool } from "./feedback-tool.js";
import { readLlmLog } from "./llm-log.js";
import { cutProviderFailureTail, preflight, providerFailureOf } from "./provider-failure.js";
import { type ResolvedRun, type ResolveOptions, recordedEndpoint, resolveRun } from "./resolve-run.js";
import { type Results, readResultsFile } from "./results.js";
import { spawnActors } from "./run-actors.js";
import { assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { withOpenRun } from "./run-teardown.js";
import { appendRunEnd, appendRunStart, type DayProgress, openSettlement } from "./settlement.js";
import { loadConfigTaskModule } from "./task-module.js";
import type { WorldLocation } from "./world-resolver.js";

export type { DayProgress } from "./settlement.js";

export interface RunOptions extends WorldLocation, ResolveOptions {
  runsDir: string;
  onProgress?: (p: DayProgress) => void;
  log?: (msg: string) => void;
  /** oracle policies read truth: allowed only for tests and calibration */
  allowOracle?: boolean;
  /** retry pacing of model calls (wall time; never changes results) */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** observes every model request (benchmarks, tests) */
  onModelRequest?: (req: GenerateRequest, ctx: CallContext) => void;
  /** false: skip the launch preflight request to the model's endpoint (default true) */
  preflight?: boolean;
  /** the body of the outside agent (`relive mcp`): required by, and only used for, `external:*` runs */
  externalActor?: ExternalActorFactory;
}

/** Runs the episode; a provider failure names the run directory `relive resume` continues. */
async function executeStoppable(r: ResolvedRun, recorded: readonly string[], o: RunOptions): Promise<Results> {
  try {
    return await executeRun(r, recorded, o);
  } catch (err) {
    const failure = providerFailureOf(err);
    if (failure === null) throw err;
    failure.runDir = r.runDir;
    throw failure;
  }
}

export interface RunOutcome {
  runDir: string;
  results: Results;
  /** true when the run directory already held finished results */
  cached: boolean;
}

const writeJsonAtomic = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};

/** `relive run`: resolve the config, create the run directory and run the episode. */
export async function runFromConfig(cfg: RunConfig, o: RunOptions): Promise<RunOutcome> {
  await loadConfigTaskModule(cfg);
  const r = resolveRun(cfg, o);
  if (existsSync(join(r.runDir, "results.json")))
    return {
      runDir: r.runDir,
      results: readResultsFile(join(r.runDir, "results.json")),
      cached: true,
    };
  if (existsSync(r.runDir))
    throw new Error(
      `run directory ${r.runDir} exists without results (an interrupted run): continue it with \`relive resume ${r.runDir}\``,
    );
  if (o.preflight !== false) await preflight(r);
  mkdirSync(join(r.runDir, "workspace"), { recursive: true });
  try {
    writeJsonAtomic(join(r.runDir, "config.json"), r.resolvedConfig);
    LedgerWriter.create(join(r.runDir, "ledger.jsonl")).close();
  } catch (err) {
    rmSync(r.runDir, { recursive: true, force: true });
    throw err;
  }
  return { runDir: r.runDir, results: await executeStoppable(r, [], o), cached: false };
}

/** `relive resume RUNDIR`: re-run from sim_start checking every regenerated line, then continue. */
export async function resumeRun(runDir: string, o: RunOptions): Promise<RunOutcome> {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  await loadConfigTaskModule(saved.config);
  // the recorded endpoint, not the environment's: a different endpoint would be a different run
  const r = {
    ...resolveRun(saved.config, { ...o, endpoint: recordedEndpoint(saved as Parameters<typeof recordedEndpoint>[0]) }),
    runDir,
  };
  assertSameTaskModule(saved, r, runDir);
  if (existsSync(join(runDir, "results.json")))
    return { runDir, results: readResultsFile(join(runDir, "results.json")), cached: true };
  const ledgerPath = join(runDir, "ledger.jsonl");
  // killed between creating the directory and the ledger: nothing was acknowledged yet
  if (!existsSync(ledgerPath)) LedgerWriter.create(ledgerPath).close();
  // no preflight here: the recorded part replays offline; a live failure after it stops the run loudly again
  // a run stopped by a provider failure: its failed call is asked again (the record moves aside)
  const recorded = cutProviderFailureTail(runDir, readLedgerLines(ledgerPath, { repair: true }));
  // llm.jsonl is written before the ledger acknowledges a call: cut a torn tail, keep the rest for replay
  readLlmLog(join(runDir, "llm.jsonl"), { repair: true });
  return { runDir, results: await executeStoppable(r, recorded, o), cached: false };
}

/** Runs (or re-runs against `recorded`) one episode and writes results.json. */
export async function executeRun(r: ResolvedRun, recorded: readonly string[], o: RunOptions): Promise<Results> {
  // every exit path, a thrown kernel included, leaves the acknowledged lines fsynced and closed (withOpenRun)
  return withOpenRun(r, recorded, async (s, run) => {
    const taskTools = run.tools();
    if (r.config.feedback !== "none") taskTools.push(feedbackTool(r.config.feedback, r.task, run, s.ctx));
    const settlement = openSettlement(r, s, o.onProgress);
    appendRunStart(r, s, settlement.days);
    const actors = spawnActors({
      r,
      s,
      run,
      taskTools,
      recorded,
      latestBrief: settlement.latestBrief,
      ...(o.retry ? { retry: o.retry } : {}),
      ...(o.onModelRequest ? { onModelRequest: o.onModelRequest } : {}),
      ...(o.externalActor ? { externalActor: o.externalActor } : {}),
    });
    try {
      await s.kernel.run();
    } finally {
      actors.close();
    }
    appendRunEnd(r, s, settlement);
    s.ledger.close();

    const commitTools = new Set(taskTools.flatMap((d) => (d.kind === "commit" ? [d.name] : [])));
    const results = buildResults({
      r,
      events: s.events,
      report: s.scorer.report(),
      wallet: s.wallet,
      world: s.world,
      truth: s.truth,
      commitTools,
    });
    writeJsonAtomic(join(r.runDir, "results.json"), results);
    return results;
  });
}
