import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { finishTool, reactAgentBody } from "../agent/react-agent.js";
import { scriptedAgentBody } from "../agent/scripted-agent.js";
import { DAY_MS, isoInstant, nextUtcMidnight } from "../kernel/day.js";
import { Kernel } from "../kernel/kernel.js";
import { dailyBrief } from "../ledger/daily-brief.js";
import type { LedgerEvent } from "../ledger/events.js";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { Redactor } from "../ledger/redactor.js";
import { Wallet } from "../ledger/wallet.js";
import type { ExternalActorFactory } from "../mcp/external-actor.js";
import type { CallContext, GenerateRequest } from "../models/model.js";
import { generateWithRetries } from "../models/retry.js";
import type { Outcome, ProgramActor, TaskRun, TaskRunContext } from "../tasks/task.js";
import type { ToolDef } from "../tools/tool.js";
import { ToolRuntime } from "../tools/tool-runtime.js";
import { createTrigger } from "../triggers/create-trigger.js";
import { installDeadlineGuard } from "../triggers/deadline-guard.js";
import { IntentSlot } from "../triggers/trigger.js";
import { Workspace } from "../triggers/watcher/workspace.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { buildResults } from "./build-results.js";
import { ConfigError, type RunConfig } from "./config.js";
import { FEEDBACK_TOOL, feedbackTool, oracleFeedbackOf } from "./feedback-tool.js";
import { LoggedModel, readLlmLog, recordedFailures } from "./llm-log.js";
import { programMessageTools } from "./program-messages.js";
import { cutProviderFailureTail, preflight, providerFailureOf } from "./provider-failure.js";
import { type ResolvedRun, type ResolveOptions, recordedEndpoint, resolveRun } from "./resolve-run.js";
import { type Results, readResultsFile } from "./results.js";
import { assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { loadConfigTaskModule } from "./task-module.js";
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
export async function runFromConfig(given: RunConfig, o: RunOptions): Promise<RunOutcome> {
  const cfg = await loadConfigTaskModule(given);
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
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  let openLedger: LedgerWriter | null = null;
  try {
    const { task, sim_start, sim_end } = r;
    const kernel = new Kernel({ start: sim_start, end: sim_end });
    const ledger = LedgerWriter.verifying(join(r.runDir, "ledger.jsonl"), recorded);
    openLedger = ledger;
    const redactor = new Redactor();
    ledger.redactWith(redactor);
    const closers: (() => void)[] = [];
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
      secrets: redactor,
      feedback: r.config.feedback,
      oracleFeedback: r.config.feedback === "oracle" ? oracleFeedbackOf(events, () => kernel.now()) : null,
      sim_start,
      sim_end,
      view: world.at(() => kernel.now(), { search: r.config.search ?? "global" }),
      kernel,
      budget_usd: r.budget_usd,
      env_seed: r.env_seed,
      world,
    };
    // task tools that move the clock (open-forecast's next_day) leave a sleep intent in the calling actor's slot
    const slots = new Map<string, IntentSlot>();
    ctx.agentClock = {
      trigger: r.config.agent.trigger,
      sleepUntil:
        r.agent.kind !== "scripted" && r.agent.trigger === "sleep"
          ? (until, tool, actor) => slots.get(actor)?.set({ kind: "sleep", until, tool })
          : null,
    };
    const run = task.open(ctx);
    try {
      const taskTools = run.tools();
      if (r.config.feedback !== "none") taskTools.push(feedbackTool(r.config.feedback, task, run, ctx));
      const limiters = run.limiters();
      const now = () => kernel.now();
      const workspaceDir = join(r.runDir, "workspace");
      if (r.agent.kind === "model" && r.agent.trigger === "watcher") {
        // the workspace is rebuilt by the (re-)run itself (DESIGN invariant 3)
        rmSync(workspaceDir, { recursive: true, force: true });
        mkdirSync(workspaceDir, { recursive: true });
      }
      const program = programOf(r, run, taskTools);
      // several actors talk through free mailboxes (a single agent has nobody to talk to)
      const messageTools = program.length > 1 ? programMessageTools(program.map((x) => x.id)) : [];
      /** one LLM actor: its own trigger, intent slot and tool subset over the shared ledger, wallet and limiters */
      const modelActor = (actor: ProgramActor, trigger: "sleep" | "watcher" | "cron") => {
        const slot = new IntentSlot();
        slots.set(actor.id, slot);
        const allowed = new Set(actor.tools);
        let runtime: ToolRuntime | null = null;
        const agentTrigger = createTrigger({
          kind: trigger,
          kernel,
          actorId: actor.id,
          slot,
          baseSchedule: task.baseSchedule,
          cronBase: r.config.agent.cron_base,
          ...(trigger === "watcher"
            ? {
                watcher: {
                  taskId: task.id,
                  workspace: new Workspace(program.length > 1 ? join(workspaceDir, actor.id) : workspaceDir),
                  dataTools: () => (runtime as ToolRuntime).docs().filter((d) => d.kind === "data"),
                  callTool: (name: string, args: unknown) => (runtime as ToolRuntime).call(actor.id, name, args),
                  note: (kind: string, message: string) =>
                    ledger.append({ type: "note", t: kernel.now(), actor: actor.id, kind, message }),
                  now,
                  ...(r.config.agent.watcher?.step_budget ? { stepBudget: r.config.agent.watcher.step_budget } : {}),
                  ...(r.config.agent.watcher?.memory_mb
                    ? { memoryLimitBytes: r.config.agent.watcher.memory_mb * 1024 * 1024 }
                    : {}),
                },
              }
            : {}),
        });
        runtime = new ToolRuntime({
          tools: [
            ...taskTools.filter((t) => allowed.has(t.name)),
            ...messageTools,
            ...agentTrigger.tools,
            finishTool(slot),
          ],
          limiters,
          ledger,
          wallet,
          now,
        });
        return { actor, slot, trigger: agentTrigger, runtime };
      };

      const days = Math.round((sim_end - sim_start) / DAY_MS);
      let commitments = 0;
      let outcomes = 0;
      let latestBrief: string | null = null;
      ledger.subscribe((e) => {
        if (e.type === "daily_brief") latestBrief = e.text;
        if (e.type === "commitment") commitments++;
        if (e.type === "outcome") outcomes++;
      });
      const progress = (t: number, day: number) =>
        o.onProgress?.({ day, days, t, spent_usd: wallet.spent, commitments, outcomes, replaying: ledger.replaying });

      // settlement and day boundaries, in simulated order, whenever the clock moves
      let nextMidnight = nextUtcMidnight(sim_start);
      const appendOutcome = (x: Outcome) =>
        ledger.append({
          type: "outcome",
          t: x.t,
          key: x.key,
          status: x.status,
          credit: x.credit,
          released_at: Math.max(x.t, x.released_at ?? x.t),
          detail: x.detail,
        });
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
        ...(ledger.version >= 2 ? { ledger_version: ledger.version } : {}),
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

      const a = r.agent;
      let closeModel = () => {};
      if (a.kind === "scripted") {
        kernel.spawn(
          "agent",
          scriptedAgentBody({
            policy: a.policy,
            trigger: a.trigger,
            kernel,
            runtime: new ToolRuntime({ tools: taskTools, limiters, ledger, wallet, now }),
            ledger,
            baseSchedule: task.baseSchedule,
            oracleEnv: a.policy.oracle ? { truth, world, params: r.params } : null,
          }),
        );
      } else if (a.kind === "external") {
        if (!o.externalActor)
          throw new ConfigError(
            `agent.model: "${r.agentName}" is an outside agent: start its run with \`relive mcp\` (outside-agent runs cannot be resumed)`,
          );
        // one outside actor with every task tool, the sleep tool and finish, over the same runtime as an LLM actor
        const x = modelActor(program[0]!, a.trigger);
        kernel.spawn(
          x.actor.id,
          o.externalActor({
            runtime: x.runtime,
            trigger: x.trigger,
            slot: x.slot,
            ledger,
            instruction: x.actor.instruction,
            dailyBrief: () => latestBrief,
            wakeNote: (w) => run.wakeNote(w),
            wallet,
            secrets: redactor,
            runDir: r.runDir,
          }),
        );
      } else {
        if (a.created === null) throw new Error("internal: a model run resolved without its model");
        const llmPath = join(r.runDir, "llm.jsonl");
        const model = new LoggedModel(
          a.created.model,
          llmPath,
          a.priceKey,
          readLlmLog(llmPath),
          recordedFailures(recorded),
          redactor,
        );
        closeModel = () => model.close();
        const retry = o.retry ?? {};
        const noPause = () => Promise.resolve();
        const generate = (
          req: GenerateRequest,
          c: CallContext,
          onAttempt: (x: { attempt: number; ok: boolean; error?: unknown }) => void,
        ) =>
          generateWithRetries(model, req, c, {
            ...retry,
            // replayed attempts are answered from the record: no pacing needed
            ...(model.isRecorded(c) ? { sleep: noPause } : {}),
            onAttempt,
          });
        const trigger = a.trigger;
        // every actor of the program in one wait party: the clock moves only when all of them wait
        // full transcripts per actor in <run>/transcripts/, beside the ledger and never inside the workspace the
        // agent reads and writes (rewritten by every (re-)run, secrets redacted)
        const transcriptsDir = join(r.runDir, "transcripts");
        rmSync(transcriptsDir, { recursive: true, force: true });
        mkdirSync(transcriptsDir, { recursive: true });
        for (const { actor, slot, trigger: agentTrigger, runtime } of program.map((x) => modelActor(x, trigger))) {
          const fd = openSync(join(transcriptsDir, `${actor.id}.jsonl`), "w");
          closers.push(() => closeSync(fd));
          kernel.spawn(
            actor.id,
            reactAgentBody({
              runtime,
              ledger,
              wallet,
              trigger: agentTrigger,
              slot,
              instruction: actor.instruction,
              modelName: a.priceKey,
              ...(a.endpoint !== undefined ? { endpoint: a.endpoint } : {}),
              generate,
              cost: (u) => a.prices.cost(a.priceKey, u),
              // the run seed goes to providers that accept one (never recorded in the settings: runs of every seed share an id)
              settings: { ...a.settings, seed: r.config.seed },
              contextTokens: a.contextTokens,
              dailyBrief: () => latestBrief,
              onTranscript: (m, t) => writeSync(fd, `${redactor.redact(JSON.stringify({ t: isoInstant(t), ...m }))}\n`),
              wakeNote: (w) => run.wakeNote(w),
              ...(o.onModelRequest ? { onRequest: o.onModelRequest } : {}),
              onStart: () => {
                if (r.config.agent.deadline_guard)
                  installDeadlineGuard({
                    kernel,
                    actorId: actor.id,
                    deadlines: (until) => run.deadlines(ctx.view, until),
                    marginMs: (r.config.agent.deadline_guard_margin_min ?? 60) * 60_000,
                  });
              },
            }),
          );
        }
      }
      try {
        await kernel.run();
      } finally {
        closeModel();
        for (const c of closers) c();
      }
      settleThrough(sim_end);
      progress(sim_end, days);
      ledger.append({ type: "run_end", t: sim_end, reason: "sim_end" });
      ledger.close();

      const commitTools = new Set(taskTools.flatMap((d) => (d.kind === "commit" ? [d.name] : [])));
      const results = buildResults({ r, events, report: scorer.report(), wallet, world, truth, commitTools });
      writeJsonAtomic(join(r.runDir, "results.json"), results);
      return results;
    } finally {
      await run.dispose().catch(() => {});
    }
  } finally {
    // every exit path, a thrown kernel included, leaves the acknowledged lines fsynced and closed
    openLedger?.close();
    world.close();
    truth.close();
  }
}

/**
 * The actors of a model run: the task's program shape (e.g. one agent per market plus a coordinator)
 * unless `agent.program: single`, else one actor "agent" with every task tool. The feedback tool,
 * when present, is given to every actor.
 */
function programOf(r: ResolvedRun, run: TaskRun, taskTools: readonly ToolDef[]): ProgramActor[] {
  const { task } = r;
  const actors = r.agent.kind === "model" && r.config.agent.program !== "single" ? run.program() : null;
  if (!actors) return [{ id: "agent", instruction: run.instruction(), tools: taskTools.map((t) => t.name) }];
  const names = new Set(taskTools.map((t) => t.name));
  const ids = new Set<string>();
  for (const x of actors) {
    if (!ACTOR_ID.test(x.id) || ids.has(x.id))
      throw new Error(`internal: task ${task.id} program has a bad or duplicate actor id "${x.id}"`);
    ids.add(x.id);
    for (const t of x.tools)
      if (!names.has(t)) throw new Error(`internal: task ${task.id} program gives actor ${x.id} unknown tool "${t}"`);
  }
  return actors.map((x) => ({ ...x, tools: names.has(FEEDBACK_TOOL) ? [...x.tools, FEEDBACK_TOOL] : x.tools }));
}

const ACTOR_ID = /^[a-z0-9_-]{1,64}$/;
