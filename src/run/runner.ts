import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import type { ExternalActorFactory } from "../mcp/external-actor.js";
import type { CallContext, GenerateRequest } from "../models/model.js";
import { recordedAuxEndpoints } from "./aux-models.js";
import { bestOfNOf } from "./best-of-n-config.js";
import { runBestOfN } from "./best-of-n-run.js";
import { ResultsTally } from "./build-results.js";
import { type Checkpoint, clearCheckpoint, pauseInstant, RunPaused, writeCheckpoint } from "./checkpoint.js";
import { ConfigError, type RunConfig } from "./config.js";
import { checkConfigCronGate } from "./cron-gate-file.js";
import { feedbackTool } from "./feedback-tool.js";
import { readLlmLog } from "./llm-log.js";
import { prepareRunWorld } from "./prepare-run-world.js";
import { cutProviderFailureTail, preflight, providerFailureOf } from "./provider-failure.js";
import { type ResolvedRun, type ResolveOptions, recordedEndpoint, resolveRun } from "./resolve-run.js";
import { planOfRestart, readRestartRecord, type SettingsSwitch } from "./restart-record.js";
import { type Results, readResultsFile } from "./results.js";
import { type SpawnedActors, spawnActors } from "./run-actors.js";
import { assertSameCronGate, assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { withOpenRun } from "./run-teardown.js";
import { appendRunEnd, appendRunStart, type DayProgress, openSettlement } from "./settlement.js";
import { loadConfigTaskModule } from "./task-module.js";
import { loadConfigTriggerModule } from "./trigger-module.js";
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
  /**
   * pause the run at the end of this simulated day (1-based): the directory keeps `checkpoint.json`
   * and `results.partial.json` instead of results.json, and `relive resume` continues it
   */
  stopAfterDay?: number;
}

/** Runs the episode; a provider failure names the run directory `relive resume` continues. */
export async function executeStoppable(
  r: ResolvedRun,
  recorded: readonly string[],
  o: RunOptions,
  plan: RunPlan = {},
): Promise<Omit<RunOutcome, "cached">> {
  try {
    return await executeEpisode(r, recorded, o, plan);
  } catch (err) {
    const failure = providerFailureOf(err);
    if (failure === null) throw err;
    failure.runDir = r.runDir;
    throw failure;
  }
}

export interface RunOutcome {
  runDir: string;
  /** results.json, or the partial results (results.partial.json) of a paused run */
  results: Results;
  /** true when the run directory already held finished results */
  cached: boolean;
  /** set when the run paused (`stopAfterDay`): `relive resume` continues it */
  paused?: Checkpoint;
}

/** What a (re-)run does beyond its config: a restart's settings switch at the start of its day. */
export interface RunPlan {
  /** in time order */
  switches?: readonly SettingsSwitch[];
}

const writeJsonAtomic = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};

/** `relive run`: resolve the config, create the run directory and run the episode. */
export async function runFromConfig(given: RunConfig, o: RunOptions): Promise<RunOutcome> {
  const cfg = await loadConfigTaskModule(given);
  await loadConfigTriggerModule(cfg);
  await prepareRunWorld(cfg, o);
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
  if (o.stopAfterDay !== undefined) refuseBestOfNPause(r);
  if (o.stopAfterDay !== undefined) pauseInstant(r.sim_start, r.sim_end, o.stopAfterDay);
  await checkConfigCronGate(r);
  if (o.preflight !== false) await preflight(r);
  mkdirSync(join(r.runDir, "workspace"), { recursive: true });
  try {
    writeJsonAtomic(join(r.runDir, "config.json"), r.resolvedConfig);
    LedgerWriter.create(join(r.runDir, "ledger.jsonl")).close();
  } catch (err) {
    rmSync(r.runDir, { recursive: true, force: true });
    throw err;
  }
  // Best-of-N: branches in branches/b<k>/, pruned at the prune days (src/run/best-of-n-run.ts)
  if (bestOfNOf(r.config) !== null) return { ...(await runBestOfN(r, o)), cached: false };
  return { ...(await executeStoppable(r, [], o)), cached: false };
}

/** `relive resume RUNDIR`: re-run from sim_start checking every regenerated line, then continue. */
export async function resumeRun(runDir: string, o: RunOptions): Promise<RunOutcome> {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  const restart = readRestartRecord(cfgPath);
  await loadConfigTaskModule(saved.config);
  await loadConfigTriggerModule(saved.config);
  await prepareRunWorld(saved.config, o);
  // the recorded endpoint, not the environment's: a different endpoint would be a different run
  const resolved = resolveRun(saved.config, {
    ...o,
    endpoint: recordedEndpoint(saved as Parameters<typeof recordedEndpoint>[0]),
    auxEndpoints: recordedAuxEndpoints(saved as Parameters<typeof recordedAuxEndpoints>[0]),
  });
  // a restarted run (`relive restart`) keeps its own id and switches its settings at its day again
  const r = { ...resolved, runDir, ...(restart ? { runId: restart.run_id } : {}) };
  assertSameTaskModule(saved, r, runDir);
  assertSameCronGate(saved, r, runDir);
  if (existsSync(join(runDir, "results.json")))
    return { runDir, results: readResultsFile(join(runDir, "results.json")), cached: true };
  if (bestOfNOf(r.config) !== null) {
    // a Best-of-N run continues its branches (each resumed with its own verified re-run)
    if (o.stopAfterDay !== undefined) refuseBestOfNPause(r);
    return { ...(await runBestOfN(r, o)), cached: false };
  }
  if (o.stopAfterDay !== undefined) pauseInstant(r.sim_start, r.sim_end, o.stopAfterDay);
  const ledgerPath = join(runDir, "ledger.jsonl");
  // killed between creating the directory and the ledger: nothing was acknowledged yet
  if (!existsSync(ledgerPath)) LedgerWriter.create(ledgerPath).close();
  // no preflight here: the recorded part replays offline; a live failure after it stops the run loudly again
  // a run stopped by a provider failure: its failed call is asked again (the record moves aside)
  const recorded = cutProviderFailureTail(runDir, readLedgerLines(ledgerPath, { repair: true }));
  // llm.jsonl is written before the ledger acknowledges a call: cut a torn tail, keep the rest for replay
  readLlmLog(join(runDir, "llm.jsonl"), { repair: true });
  const plan = restart ? planOfRestart(restart, r) : {};
  return { ...(await executeStoppable(r, recorded, o, plan)), cached: false };
}

/**
 * Runs (or re-runs against `recorded`) one episode and writes results.json; a run paused by
 * `o.stopAfterDay` writes checkpoint.json and results.partial.json instead and returns the partial results.
 */
export async function executeRun(r: ResolvedRun, recorded: readonly string[], o: RunOptions): Promise<Results> {
  return (await executeEpisode(r, recorded, o, {})).results;
}

/** `executeRun` with a plan (a restart's settings switch); says whether the run paused. */
export async function executeEpisode(
  r: ResolvedRun,
  recorded: readonly string[],
  o: RunOptions,
  plan: RunPlan,
): Promise<Omit<RunOutcome, "cached">> {
  if (bestOfNOf(r.config) !== null)
    throw new ConfigError(
      `${r.runDir}: a Best-of-N run (agent.learning: best-of-n) runs as branches (\`relive run\` / \`relive resume\`); it cannot be executed or restarted as one agent`,
    );
  const stopAt = o.stopAfterDay !== undefined ? pauseInstant(r.sim_start, r.sim_end, o.stopAfterDay) : null;
  // every exit path, a thrown kernel included, leaves the acknowledged lines fsynced and closed (withOpenRun)
  return withOpenRun(r, recorded, async (s, run) => {
    const taskTools = run.tools();
    if (r.config.feedback !== "none") taskTools.push(feedbackTool(r.config.feedback, r.task, run, s.ctx));
    // results are tallied as the ledger is written (no event is held)
    const commitTools = new Set(taskTools.flatMap((d) => (d.kind === "commit" ? [d.name] : [])));
    const tally = new ResultsTally(r, s.world, s.truth, commitTools);
    s.ledger.subscribe((e) => tally.observe(e));
    const settlement = openSettlement(r, s, o.onProgress);
    let actors: SpawnedActors | null = null;
    const switches = [...(plan.switches ?? [])];
    // settlement and day boundaries whenever the clock moves; a restart's switch and a pause happen at a day start
    s.kernel.onAdvance((_from, to) => {
      while (switches.length && to >= switches[0]!.at) {
        const sw = switches.shift()!;
        actors?.switchSettings(sw.settings);
        if (sw.harness) {
          const cur = s.harness.state();
          s.harness.set({
            ...cur,
            ...(sw.harness.addendum !== undefined ? { addendum: sw.harness.addendum } : {}),
            tuned: { ...cur.tuned, ...sw.harness.tuned },
          });
        }
      }
      if (stopAt !== null && to >= stopAt) {
        settlement.settleThrough(stopAt);
        if (s.ledger.replaying)
          throw new ConfigError(
            `${r.runDir}: the run's record already goes past day ${o.stopAfterDay}: it cannot pause there (resume it without --stop-after-day)`,
          );
        throw new RunPaused(stopAt);
      }
      settlement.settleThrough(to);
    });
    appendRunStart(r, s, settlement.days);
    actors = spawnActors({
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
    let paused: RunPaused | null = null;
    try {
      await s.kernel.run();
    } catch (err) {
      if (!(err instanceof RunPaused)) throw err;
      paused = err;
    } finally {
      actors.close();
    }
    const build = (window: ResolvedRun) => tally.results({ r: window, report: s.scorer.report(), wallet: s.wallet });
    if (paused !== null) {
      s.ledger.close();
      // the partial results cover the episode so far: [sim_start, pause)
      const partial = build({ ...r, sim_end: paused.at });
      const checkpoint = writeCheckpoint(
        r.runDir,
        { day: o.stopAfterDay as number, at: paused.at, ledgerLines: s.ledger.length },
        partial,
      );
      return { runDir: r.runDir, results: partial, paused: checkpoint };
    }
    actors.finish(r.sim_end);
    appendRunEnd(r, s, settlement);
    s.ledger.close();
    const results = build(r);
    writeJsonAtomic(join(r.runDir, "results.json"), results);
    clearCheckpoint(r.runDir);
    return { runDir: r.runDir, results };
  });
}

/** A Best-of-N run pauses its branches itself; pausing the whole run is not offered. */
function refuseBestOfNPause(r: ResolvedRun): void {
  if (bestOfNOf(r.config) !== null)
    throw new ConfigError(
      "--stop-after-day: a Best-of-N run (agent.learning: best-of-n) pauses its branches at its prune days itself; run it whole",
    );
}
