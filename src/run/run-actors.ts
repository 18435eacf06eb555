import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { finishTool, reactAgentBody } from "../agent/react-agent.js";
import { scriptedAgentBody, scriptedSchedules } from "../agent/scripted-agent.js";
import { modelCostText } from "../agent/system-prompt.js";
import { isoInstant } from "../common/time.js";
import { CURATOR_DEFAULT_MAX_OUTPUT_TOKENS, type CuratorOptions } from "../learning/curator.js";
import { type Learning, setupLearning } from "../learning/learning-runtime.js";
import { MEMORY_TOOL_NAMES } from "../learning/memory-tools.js";
import { PROPOSER_DEFAULT_MAX_OUTPUT_TOKENS, type ProposerOptions } from "../learning/optimizer.js";
import type { ExternalActorFactory } from "../mcp/external-actor.js";
import type { CallContext, GenerateRequest, ModelSettings, Usage } from "../models/model.js";
import { generateWithRetries } from "../models/retry.js";
import type { ProgramActor, TaskRun } from "../tasks/task.js";
import type { ToolDef } from "../tools/tool.js";
import { ToolRuntime } from "../tools/tool-runtime.js";
import { createTrigger } from "../triggers/create-trigger.js";
import { installDeadlineGuard } from "../triggers/deadline-guard.js";
import { IntentSlot, type TriggerKind } from "../triggers/trigger.js";
import { Workspace } from "../triggers/watcher/workspace.js";
import type { AuxRole } from "./aux-models.js";
import { samplingSeed } from "./best-of-n-config.js";
import { ConfigError } from "./config.js";
import { FEEDBACK_TOOL } from "./feedback-tool.js";
import { LoggedModel, readLlmLog, recordedFailures } from "./llm-log.js";
import { installOptimizer } from "./optimizer-run.js";
import { programMessageTools } from "./program-messages.js";
import type { ResolvedRun } from "./resolve-run.js";
import type { RunSetup } from "./run-setup.js";
import { triggerPolicyOf } from "./trigger-module.js";

export interface ActorWiring {
  r: ResolvedRun;
  s: RunSetup;
  run: TaskRun;
  /** the task's tools (the feedback tool included when the condition has one) */
  taskTools: ToolDef[];
  /** the recorded ledger lines being re-run (failed model attempts are answered from them) */
  recorded: readonly string[];
  latestBrief: () => string | null;
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  onModelRequest?: (req: GenerateRequest, ctx: CallContext) => void;
  externalActor?: ExternalActorFactory;
}

/** the actors' per-run resources (model log, transcript files), released by `close` after the kernel stops */
export interface SpawnedActors {
  close(): void;
  /** the run reached sim_end (not a pause): the optimizer scores and judges its last span */
  finish(end: number): void;
  /** changes the model settings of every LLM actor from its next call on (a restart's switch; no-op for other agents) */
  switchSettings(patch: Partial<ModelSettings>): void;
}

/**
 * Spawns the run's actors on the kernel: the scripted policy, the outside agent, or one ReAct agent
 * per program actor, each with its trigger and tool runtime over the run's ledger, wallet and limiters.
 */
export function spawnActors(w: ActorWiring): SpawnedActors {
  const { r, s, run } = w;
  const { kernel, ledger } = s;
  const limiters = run.limiters();
  // memory tools, outcome memory and the reflection curator (src/learning); the curator is the run's model
  const curator: { options: CuratorOptions | null } = { options: null };
  const learning = setupLearning({
    memory: r.learning.memory,
    memoryTools: r.learning.memoryTools,
    dir: join(r.runDir, "memory"),
    kernel,
    ledger,
    run,
    ctx: s.ctx,
    curator:
      r.learning.memory === "reflection"
        ? () => {
            if (curator.options === null) throw new Error("internal: reflection memory without the run's model");
            return curator.options;
          }
        : null,
  });
  // the harness optimizer (src/learning/optimizer.ts): cuts at the span starts; its proposer is a model caller like the curator
  const proposer: { options: ProposerOptions | null } = { options: null };
  const optimizer = installOptimizer(r, s, run, () => {
    if (proposer.options === null) throw new Error("internal: the harness optimizer without the run's model");
    return proposer.options;
  });
  const spawned = spawnActorsWith(w, learning, curator, limiters, proposer);
  return {
    finish: (end) => optimizer?.finish(end),
    close: () => {
      try {
        spawned.close();
      } finally {
        learning.close();
      }
    },
    switchSettings: spawned.switchSettings,
  };
}

function spawnActorsWith(
  w: ActorWiring,
  learning: Learning,
  curator: { options: CuratorOptions | null },
  limiters: ReturnType<TaskRun["limiters"]>,
  proposer: { options: ProposerOptions | null },
): Omit<SpawnedActors, "finish"> {
  const { r, s, run, taskTools } = w;
  const { kernel, ledger, wallet, now } = s;
  const workspaceDir = join(r.runDir, "workspace");
  if (r.agent.kind !== "external" && r.agent.trigger === "watcher") {
    // the workspace is rebuilt by the (re-)run itself (DESIGN invariant 3)
    rmSync(workspaceDir, { recursive: true, force: true });
    mkdirSync(workspaceDir, { recursive: true });
  }
  const program = programOf(r, run, taskTools);
  // several actors talk through free mailboxes (a single agent has nobody to talk to)
  const messageTools = program.length > 1 ? programMessageTools(program.map((x) => x.id)) : [];
  /** one LLM actor: its own trigger, intent slot and tool subset over the shared ledger, wallet and limiters */
  const modelActor = (
    actor: ProgramActor,
    trigger: TriggerKind,
    extraSchedules?: { id: string; cron_expr: string; note: string }[],
  ) => {
    const note = (kind: string, message: string) =>
      ledger.append({ type: "note", t: kernel.now(), actor: actor.id, kind, message });
    const gateSource = r.cronGate?.source;
    const slot = new IntentSlot();
    s.slots.set(actor.id, slot);
    const allowed = new Set(actor.tools);
    let runtime: ToolRuntime | null = null;
    const agentTrigger = createTrigger({
      kind: trigger,
      kernel,
      actorId: actor.id,
      slot,
      baseSchedule: r.task.baseSchedule,
      cronBase: r.config.agent.cron_base,
      ...(extraSchedules
        ? {
            extraSchedules: extraSchedules.map((e) => (gateSource !== undefined ? { ...e, when: gateSource } : e)),
          }
        : {}),
      ...(trigger === "cron"
        ? {
            ...(gateSource !== undefined ? { baseWhen: gateSource } : {}),
            cronGate: {
              dataTools: () =>
                (runtime as ToolRuntime)
                  .docs()
                  .filter((d) => d.kind === "data")
                  .map((d) => d.name),
              callTool: (name: string, args: unknown) => (runtime as ToolRuntime).call(actor.id, name, args),
              note,
              ...(r.config.agent.cron_gate?.step_budget ? { stepBudget: r.config.agent.cron_gate.step_budget } : {}),
              ...(r.config.agent.cron_gate?.memory_mb
                ? { memoryLimitBytes: r.config.agent.cron_gate.memory_mb * 1024 * 1024 }
                : {}),
            },
          }
        : {}),
      ...(trigger === "policy"
        ? {
            policy: {
              policy: triggerPolicyOf(r.config),
              observations: (since: number, until: number) => run.observations(since, until),
              note: (kind: string, message: string) =>
                ledger.append({ type: "note", t: kernel.now(), actor: actor.id, kind, message }),
            },
          }
        : {}),
      ...(trigger === "watcher"
        ? {
            watcher: {
              taskId: r.task.id,
              ...(r.task.exampleWatcher !== undefined ? { exampleWatcher: r.task.exampleWatcher } : {}),
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
        ...learning.tools,
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

  /** the deadline guard (agent.deadline_guard) of one actor, installed when it starts */
  const guard = (actorId: string) => {
    if (r.config.agent.deadline_guard)
      installDeadlineGuard({
        kernel,
        actorId,
        deadlines: (until) => run.deadlines(s.ctx.view, until),
        marginMs: (r.config.agent.deadline_guard_margin_min ?? 60) * 60_000,
      });
  };
  const a = r.agent;
  switch (a.kind) {
    case "scripted": {
      // the scripted agent runs under the same trigger (install and waits) as an LLM actor
      const x = modelActor(program[0]!, a.trigger, scriptedSchedules(a.policy));
      kernel.spawn(
        x.actor.id,
        scriptedAgentBody({
          policy: a.policy,
          trigger: x.trigger,
          runtime: x.runtime,
          ledger,
          oracleEnv: a.policy.oracle ? { truth: s.truth, world: s.world, params: r.params } : null,
          onStart: () => guard(x.actor.id),
        }),
      );
      return { close: () => {}, switchSettings: () => {} };
    }
    case "external": {
      if (!w.externalActor)
        throw new ConfigError(
          `agent.model: "${r.agentName}" is an outside agent: start its run with \`relive mcp\` (outside-agent runs cannot be resumed)`,
        );
      // one outside actor with every task tool, the sleep tool and finish, over the same runtime as an LLM actor
      const x = modelActor(program[0]!, a.trigger);
      kernel.spawn(
        x.actor.id,
        w.externalActor({
          runtime: x.runtime,
          trigger: x.trigger,
          slot: x.slot,
          ledger,
          instruction: x.actor.instruction,
          dailyBrief: w.latestBrief,
          wakeNote: (wake) => run.wakeNote(wake),
          wallet,
          secrets: s.redactor,
          runDir: r.runDir,
        }),
      );
      return { close: () => {}, switchSettings: () => {} };
    }
    case "model":
      return spawnModelActors(w, a, program, modelActor, learning, curator, proposer, guard);
    default: {
      const never: never = a;
      throw new Error(`internal: unknown agent kind ${JSON.stringify(never)}`);
    }
  }
}

type ModelAgent = Extract<ResolvedRun["agent"], { kind: "model" }>;
type ModelActorOf = (
  actor: ProgramActor,
  trigger: TriggerKind,
) => { actor: ProgramActor; slot: IntentSlot; trigger: ReturnType<typeof createTrigger>; runtime: ToolRuntime };

/** One ReAct agent per program actor, all in one wait party, over one logged model. */
function spawnModelActors(
  w: ActorWiring,
  a: ModelAgent,
  program: ProgramActor[],
  modelActor: ModelActorOf,
  learning: Learning,
  curator: { options: CuratorOptions | null },
  proposer: { options: ProposerOptions | null },
  guard: (actorId: string) => void,
): Omit<SpawnedActors, "finish"> {
  const { r, s, run } = w;
  const { kernel, ledger, wallet, redactor } = s;
  if (a.created === null) throw new Error("internal: a model run resolved without its model");
  const llmPath = join(r.runDir, "llm.jsonl");
  const model = new LoggedModel(
    a.created.model,
    llmPath,
    a.priceKey,
    readLlmLog(llmPath),
    recordedFailures(w.recorded),
    redactor,
  );
  const closers: (() => void)[] = [() => model.close()];
  const retry = w.retry ?? {};
  const noPause = () => Promise.resolve();
  const generateWith =
    (m: LoggedModel) =>
    (req: GenerateRequest, c: CallContext, onAttempt: (x: { attempt: number; ok: boolean; error?: unknown }) => void) =>
      generateWithRetries(m, req, c, {
        ...retry,
        // replayed attempts are answered from the record: no pacing needed
        ...(m.isRecorded(c) ? { sleep: noPause } : {}),
        onAttempt,
      });
  const generate = generateWith(model);
  /**
   * a harness-side caller's model: its own (agent.curator.model, agent.learning.proposer) through the same
   * llm.jsonl, billed at its own prices and booked to the run's wallet; else the run's
   */
  const callerOf = (role: AuxRole) => {
    const own = r.aux[role];
    if (own === undefined)
      return {
        generate,
        modelName: a.priceKey,
        cost: (u: Usage) => a.prices.cost(a.priceKey, u),
        ...(a.endpoint !== undefined ? { endpoint: a.endpoint } : {}),
      };
    if (own.created === null) throw new Error(`internal: the ${role} model resolved without its client`);
    const m = new LoggedModel(
      own.created.model,
      llmPath,
      own.priceKey,
      readLlmLog(llmPath),
      recordedFailures(w.recorded),
      redactor,
    );
    closers.push(() => m.close());
    return {
      generate: generateWith(m),
      modelName: own.priceKey,
      cost: (u: Usage) => a.prices.cost(own.priceKey, u),
      ...(own.endpoint !== undefined ? { endpoint: own.endpoint } : {}),
    };
  };
  // every actor of the program in one wait party: the clock moves only when all of them wait
  // full transcripts per actor in <run>/transcripts/, beside the ledger and never inside the workspace the
  // agent reads and writes (rewritten by every (re-)run, secrets redacted)
  const transcriptsDir = join(r.runDir, "transcripts");
  rmSync(transcriptsDir, { recursive: true, force: true });
  mkdirSync(transcriptsDir, { recursive: true });
  const close = () => {
    for (const c of closers) c();
  };
  // one settings object shared by the actors: the run seed goes to providers that accept one (never recorded
  // in the settings: runs of every seed share an id); a restart's switch changes it in place
  // a Best-of-N branch k ≥ 1 samples with its own drawn seed (src/run/best-of-n-config.ts)
  const settings: ModelSettings = { ...a.settings, seed: samplingSeed(r.config) };
  const cur = r.config.agent.curator;
  curator.options = {
    ledger,
    wallet,
    ...callerOf("curator"),
    settings: {
      maxOutputTokens: cur?.max_output_tokens ?? CURATOR_DEFAULT_MAX_OUTPUT_TOKENS,
      ...(cur?.temperature !== undefined ? { temperature: cur.temperature } : {}),
      seed: samplingSeed(r.config),
    },
    instruction: run.instruction(),
  };
  const opt = r.learning.optimizer;
  if (opt !== null && !opt.control)
    proposer.options = {
      ledger,
      wallet,
      ...callerOf("proposer"),
      settings: {
        maxOutputTokens: opt.max_output_tokens ?? PROPOSER_DEFAULT_MAX_OUTPUT_TOKENS,
        ...(opt.temperature !== undefined ? { temperature: opt.temperature } : {}),
        seed: r.config.seed,
      },
    };
  try {
    for (const { actor, slot, trigger: agentTrigger, runtime } of program.map((x) => modelActor(x, a.trigger))) {
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
          settings,
          contextTokens: a.contextTokens,
          dailyBrief: w.latestBrief,
          onTranscript: (m, t) => writeSync(fd, `${redactor.redact(JSON.stringify({ t: isoInstant(t), ...m }))}\n`),
          wakeNote: (wake) => run.wakeNote(wake),
          modelCost: modelCostText({
            model: a.priceKey,
            price: pricedRow(a.prices.lookup(a.priceKey), a.priceKey),
            llmCapUsd: r.config.domain_budgets.llm ?? null,
            budgetUsd: r.budget_usd,
          }),
          state: () => run.state(),
          ...(r.config.agent.scaffolding ? { scaffolding: r.config.agent.scaffolding } : {}),
          guidance: {
            goal: `${r.task.title} (score: ${r.task.metrics.primary}, ${r.task.metrics.direction} is better)`,
            sim_start: r.sim_start,
            sim_end: r.sim_end,
            deadlines: (until) => run.deadlines(s.ctx.view, until),
          },
          learned: () => learning.learned(),
          addendum: () => s.harness.addendumText(),
          dailyReset: r.learning.dailyReset,
          ...(r.learning.memoryPhase ? { memoryPhaseTools: MEMORY_TOOL_NAMES } : {}),
          ...(w.onModelRequest ? { onRequest: w.onModelRequest } : {}),
          onStart: () => {
            learning.installWake(actor.id);
            guard(actor.id);
          },
        }),
      );
    }
  } catch (err) {
    close();
    throw err;
  }
  return { close, switchSettings: (patch) => Object.assign(settings, patch) };
}

/**
 * The actors of a model run: the task's program shape (e.g. one agent per market plus a coordinator)
 * unless `agent.program: single`, else one actor "agent" with every task tool. The feedback tool,
 * when present, is given to every actor.
 */
export function programOf(r: ResolvedRun, run: TaskRun, taskTools: readonly ToolDef[]): ProgramActor[] {
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

/** A resolved model's price row (resolve-run refuses unpriced models, so a missing row is a bug). */
function pricedRow<T>(row: T | null, key: string): T {
  if (row === null) throw new Error(`internal: model ${key} has no price row after resolution`);
  return row;
}
