import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedAgentBody } from "../agent/scripted-agent.js";
import { DAY_MS, nextUtcMidnight } from "../kernel/day.js";
import { Kernel } from "../kernel/kernel.js";
import { dailyBrief } from "../ledger/daily-brief.js";
import type { LedgerEvent } from "../ledger/events.js";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { Wallet } from "../ledger/wallet.js";
import type { Outcome, TaskRunContext } from "../tasks/task.js";
import { ToolRuntime } from "../tools/tool-runtime.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { buildResults } from "./build-results.js";
import { type ResolvedRun, resolveRun } from "./resolve-run.js";
import type { RunConfig } from "./config.js";
import type { Results } from "./results.js";
import type { WorldLocation } from "./world-resolver.js";

export interface DayProgress {
  day: number;
  days: number;
  t: number;
  spent_usd: number;
  commitments: number;
  outcomes: number;
  replaying: boolean;
}

export interface RunOptions extends WorldLocation {
  runsDir: string;
  onProgress?: (p: DayProgress) => void;
  log?: (msg: string) => void;
  /** oracle policies read truth: allowed only for tests and calibration */
  allowOracle?: boolean;
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
  const r = resolveRun(cfg, o);
  if (existsSync(join(r.runDir, "results.json")))
    return { runDir: r.runDir, results: JSON.parse(readFileSync(join(r.runDir, "results.json"), "utf8")), cached: true };
  if (existsSync(r.runDir))
    throw new Error(`run directory ${r.runDir} exists without results (an interrupted run): continue it with \`relive resume ${r.runDir}\``);
  mkdirSync(join(r.runDir, "workspace"), { recursive: true });
  try {
    writeJsonAtomic(join(r.runDir, "config.json"), r.resolvedConfig);
    LedgerWriter.create(join(r.runDir, "ledger.jsonl")).close();
  } catch (err) {
    rmSync(r.runDir, { recursive: true, force: true });
    throw err;
  }
  return { runDir: r.runDir, results: await executeRun(r, [], o), cached: false };
}

/** `relive resume RUNDIR`: re-run from sim_start checking every regenerated line, then continue. */
export async function resumeRun(runDir: string, o: RunOptions): Promise<RunOutcome> {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = JSON.parse(readFileSync(cfgPath, "utf8")) as { config: RunConfig };
  const r = { ...resolveRun(saved.config, o), runDir };
  if (existsSync(join(runDir, "results.json")))
    return { runDir, results: JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")), cached: true };
  const ledgerPath = join(runDir, "ledger.jsonl");
  // killed between creating the directory and the ledger: nothing was acknowledged yet
  if (!existsSync(ledgerPath)) LedgerWriter.create(ledgerPath).close();
  const recorded = readLedgerLines(ledgerPath, { repair: true });
  return { runDir, results: await executeRun(r, recorded, o), cached: false };
}

/** Runs (or re-runs against `recorded`) one episode and writes results.json. */
export async function executeRun(r: ResolvedRun, recorded: readonly string[], o: RunOptions): Promise<Results> {
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  try {
    const { task, sim_start, sim_end } = r;
    const kernel = new Kernel({ start: sim_start, end: sim_end });
    const ledger = LedgerWriter.verifying(join(r.runDir, "ledger.jsonl"), recorded);
    const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
    const scorer = task.createScorer({ sim_start, sim_end, world, truth, params: r.params });
    const events: LedgerEvent[] = [];
    ledger.subscribe((e) => {
      events.push(e);
      wallet.apply(e);
      scorer.onEvent(e);
    });

    const ctx: TaskRunContext<unknown> = {
      params: r.params,
      sim_start,
      sim_end,
      view: world.at(() => kernel.now()),
      kernel,
      budget_usd: r.budget_usd,
      env_seed: r.env_seed,
      world,
    };
    const runtime = new ToolRuntime({
      tools: task.tools(ctx),
      limiters: task.limiters?.(ctx) ?? {},
      ledger,
      wallet,
      now: () => kernel.now(),
    });

    const days = Math.round((sim_end - sim_start) / DAY_MS);
    let commitments = 0;
    let outcomes = 0;
    ledger.subscribe((e) => {
      if (e.type === "commitment") commitments++;
      if (e.type === "outcome") outcomes++;
    });
    const progress = (t: number, day: number) =>
      o.onProgress?.({ day, days, t, spent_usd: wallet.spent, commitments, outcomes, replaying: ledger.replaying });

    // settlement and day boundaries, in simulated order, whenever the clock moves
    let nextMidnight = nextUtcMidnight(sim_start);
    const appendOutcome = (x: Outcome) =>
      ledger.append({ type: "outcome", t: x.t, key: x.key, status: x.status, credit: x.credit, detail: x.detail });
    const settleThrough = (to: number) => {
      const due = scorer.settle(to);
      let i = 0;
      while (nextMidnight <= to && nextMidnight < sim_end) {
        while (i < due.length && due[i]!.t <= nextMidnight) appendOutcome(due[i++]!);
        const day = Math.round((nextMidnight - sim_start) / DAY_MS);
        progress(nextMidnight, day);
        ledger.append(dailyBrief(nextMidnight, day + 1, days, wallet));
        nextMidnight += DAY_MS;
      }
      while (i < due.length) appendOutcome(due[i++]!);
      if (due.length) ledger.sync();
    };
    kernel.onAdvance((_from, to) => settleThrough(to));

    ledger.append({
      type: "run_start",
      t: sim_start,
      run_id: r.runId,
      task: task.id,
      task_version: task.version,
      episode: r.episode.name,
      sim_start,
      sim_end,
      seed: r.config.seed,
      agent: r.agentName,
      trigger: r.config.agent.trigger,
      world_hash: world.manifest.hash,
      budget_usd: r.budget_usd,
    });
    ledger.append(dailyBrief(sim_start, 1, days, wallet));

    kernel.spawn(
      "agent",
      scriptedAgentBody({
        policy: r.policy,
        trigger: r.scriptedTrigger,
        kernel,
        runtime,
        ledger,
        baseSchedule: task.baseSchedule,
        ...(r.policy.oracle ? { oracleEnv: { truth, world, params: r.params } } : {}),
      }),
    );
    await kernel.run();
    settleThrough(sim_end);
    progress(sim_end, days);
    ledger.append({ type: "run_end", t: sim_end, reason: "sim_end" });
    ledger.close();

    const commitTools = new Set(runtime.docs().flatMap((d) => (d.kind === "commit" ? [d.name] : [])));
    const results = buildResults({ r, events, report: scorer.report(), wallet, world, truth, commitTools });
    writeJsonAtomic(join(r.runDir, "results.json"), results);
    return results;
  } finally {
    world.close();
    truth.close();
  }
}
