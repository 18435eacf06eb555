import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync
} from "node:fs";
import { join } from "node:path";
import { finishTool, reactAgentBody } from "../agent/react-agent.js";
import { scriptedAgentBody } from "../agent/scripted-agent.js";
import { DAY_MS, isoInstant, nextUtcMidnight } from "../kernel/day.js";
import { Kernel } from "../kernel/kernel.js";
import { dailyBrief } from "../ledger/daily-brief.js";
import { readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { Redactor } from "../ledger/redactor.js";
import { Wallet } from "../ledger/wallet.js";
import { generateWithRetries } from "../models/retry.js";
import { ToolRuntime } from "../tools/tool-runtime.js";
import { createTrigger } from "../triggers/create-trigger.js";
import { installDeadlineGuard } from "../triggers/deadline-guard.js";
import { IntentSlot } from "../triggers/trigger.js";
import { Workspace } from "../triggers/watcher/workspace.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { buildResults } from "./build-results.js";
import { ConfigError } from "./config.js";
import { FEEDBACK_TOOL, feedbackTool, oracleFeedbackOf } from "./feedback-tool.js";
import { LoggedModel, readLlmLog, recordedFailures } from "./llm-log.js";
import { programMessageTools } from "./program-messages.js";
import { cutProviderFailureTail, preflight, providerFailureOf } from "./provider-failure.js";
import { recordedEndpoint, resolveRun } from "./resolve-run.js";
import { readResultsFile } from "./results.js";
import { assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { loadConfigTaskModule } from "./task-module.js";
async function executeStoppable(r, recorded, o) {
  try {
    return await executeRun(r, recorded, o);
  } catch (err) {
    const failure = providerFailureOf(err);
    if (failure === null) throw err;
    failure.runDir = r.runDir;
    throw failure;
  }
}
const writeJsonAtomic = (path, value) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}
`);
  renameSync(`${path}.tmp`, path);
};
async function runFromConfig(cfg, o) {
  await loadConfigTaskModule(cfg);
  const r = resolveRun(cfg, o);
  if (existsSync(join(r.runDir, "results.json")))
    return {
      runDir: r.runDir,
      results: readResultsFile(join(r.runDir, "results.json")),
      cached: true
    };
  if (existsSync(r.runDir))
    throw new Error(
      `run directory ${r.runDir} exists without results (an interrupted run): continue it with \`relive resume ${r.runDir}\``
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
async function resumeRun(runDir, o) {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  await loadConfigTaskModule(saved.config);
  const r = {
    ...resolveRun(saved.config, { ...o, endpoint: recordedEndpoint(saved) }),
    runDir
  };
  assertSameTaskModule(saved, r, runDir);
  if (existsSync(join(runDir, "results.json")))
    return { runDir, results: readResultsFile(join(runDir, "results.json")), cached: true };
  const ledgerPath = join(runDir, "ledger.jsonl");
  if (!existsSync(ledgerPath)) LedgerWriter.create(ledgerPath).close();
  const recorded = cutProviderFailureTail(runDir, readLedgerLines(ledgerPath, { repair: true }));
  readLlmLog(join(runDir, "llm.jsonl"), { repair: true });
  return { runDir, results: await executeStoppable(r, recorded, o), cached: false };
}
async function executeRun(r, recorded, o) {
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  let openLedger = null;
  try {
    const { task, sim_start, sim_end } = r;
    const kernel = new Kernel({ start: sim_start, end: sim_end });
    const ledger = LedgerWriter.verifying(join(r.runDir, "ledger.jsonl"), recorded);
    openLedger = ledger;
    const redactor = new Redactor();
    ledger.redactWith(redactor);
    const closers = [];
    const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
    const scorer = task.createScorer({ sim_start, sim_end, world, truth, params: r.params });
    const events = [];
    ledger.subscribe((e) => {
      events.push(e);
      wallet.apply(e);
      scorer.onEvent(e);
    });
    const ctx = {
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
      world
    };
    const slots = /* @__PURE__ */ new Map();
    ctx.agentClock = {
      trigger: r.config.agent.trigger,
      sleepUntil: r.agent.kind !== "scripted" && r.agent.trigger === "sleep" ? (until, tool, actor) => slots.get(actor)?.set({ kind: "sleep", until, tool }) : null
    };
    const run = task.open(ctx);
    try {
      const taskTools = run.tools();
      if (r.config.feedback !== "none") taskTools.push(feedbackTool(r.config.feedback, task, run, ctx));
      const limiters = run.limiters();
      const now = () => kernel.now();
      const workspaceDir = join(r.runDir, "workspace");
      if (r.agent.kind === "model" && r.agent.trigger === "watcher") {
        rmSync(workspaceDir, { recursive: true, force: true });
        mkdirSync(workspaceDir, { recursive: true });
      }
      const program = programOf(r, run, taskTools);
      const messageTools = program.length > 1 ? programMessageTools(program.map((x) => x.id)) : [];
      const modelActor = (actor, trigger) => {
        const slot = new IntentSlot();
        slots.set(actor.id, slot);
        const allowed = new Set(actor.tools);
        let runtime = null;
        const agentTrigger = createTrigger({
          kind: trigger,
          kernel,
          actorId: actor.id,
          slot,
          baseSchedule: task.baseSchedule,
          cronBase: r.config.agent.cron_base,
          ...trigger === "watcher" ? {
            watcher: {
              taskId: task.id,
              workspace: new Workspace(program.length > 1 ? join(workspaceDir, actor.id) : workspaceDir),
              dataTools: () => runtime.docs().filter((d) => d.kind === "data"),
              callTool: (name, args) => runtime.call(actor.id, name, args),
              note: (kind, message) => ledger.append({ type: "note", t: kernel.now(), actor: actor.id, kind, message }),
              now,
              ...r.config.agent.watcher?.step_budget ? { stepBudget: r.config.agent.watcher.step_budget } : {},
              ...r.config.agent.watcher?.memory_mb ? { memoryLimitBytes: r.config.agent.watcher.memory_mb * 1024 * 1024 } : {}
            }
          } : {}
        });
        runtime = new ToolRuntime({
          tools: [
            ...taskTools.filter((t) => allowed.has(t.name)),
            ...messageTools,
            ...agentTrigger.tools,
            finishTool(slot)
          ],
          limiters,
          ledger,
          wallet,
          now
        });
        return { actor, slot, trigger: agentTrigger, runtime };
      };
      const days = Math.round((sim_end - sim_start) / DAY_MS);
      let commitments = 0;
      let outcomes = 0;
      let latestBrief = null;
      ledger.subscribe((e) => {
        if (e.type === "daily_brief") latestBrief = e.text;
        if (e.type === "commitment") commitments++;
        if (e.type === "outcome") outcomes++;
      });
      const progress = (t, day) => o.onProgress?.({ day, days, t, spent_usd: wallet.spent, commitments, outcomes, replaying: ledger.replaying });
      let nextMidnight = nextUtcMidnight(sim_start);
      const appendOutcome = (x) => ledger.append({
        type: "outcome",
        t: x.t,
        key: x.key,
        status: x.status,
        credit: x.credit,
        released_at: Math.max(x.t, x.released_at ?? x.t),
        detail: x.detail
      });
      const settleThrough = (to) => {
        const due = scorer.settle(to);
        let i = 0;
        while (nextMidnight <= to && nextMidnight < sim_end) {
          while (i < due.length && due[i].t <= nextMidnight) appendOutcome(due[i++]);
          const day = Math.round((nextMidnight - sim_start) / DAY_MS);
          progress(nextMidnight, day);
          ledger.append(dailyBrief(nextMidnight, day + 1, days, wallet));
          nextMidnight += DAY_MS;
        }
        while (i < due.length) appendOutcome(due[i++]);
        if (due.length) ledger.sync();
      };
      kernel.onAdvance((_from, to) => settleThrough(to));
      ledger.append({
        type: "run_start",
        t: sim_start,
        ...ledger.version >= 2 ? { ledger_version: ledger.version } : {},
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
        budget_usd: r.budget_usd
      });
      ledger.append(dailyBrief(sim_start, 1, days, wallet));
      const a = r.agent;
      let closeModel = () => {
      };
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
            oracleEnv: a.policy.oracle ? { truth, world, params: r.params } : null
          })
        );
      } else if (a.kind === "external") {
        if (!o.externalActor)
          throw new ConfigError(
            `agent.model: "${r.agentName}" is an outside agent: start its run with \`relive mcp\` (outside-agent runs cannot be resumed)`
          );
        const x = modelActor(program[0], a.trigger);
        kernel.spawn(
          x.actor.id,
          o.externalActor({
            runtime: x.runtime,
            trigger: x.trigger,
            slot: x.slot,
            ledger,
            instruction: x.actor.instruction,
            dailyBrief: () => latestBrief,
            wakeNote: (w) => run.wakeNote(w)
          })
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
          redactor
        );
        closeModel = () => model.close();
        const retry = o.retry ?? {};
        const noPause = () => Promise.resolve();
        const generate = (req, c, onAttempt) => generateWithRetries(model, req, c, {
          ...retry,
          // replayed attempts are answered from the record: no pacing needed
          ...model.isRecorded(c) ? { sleep: noPause } : {},
          onAttempt
        });
        const trigger = a.trigger;
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
              ...a.endpoint !== void 0 ? { endpoint: a.endpoint } : {},
              generate,
              cost: (u) => a.prices.cost(a.priceKey, u),
              // the run seed goes to providers that accept one (never recorded in the settings: runs of every seed share an id)
              settings: { ...a.settings, seed: r.config.seed },
              contextTokens: a.contextTokens,
              dailyBrief: () => latestBrief,
              onTranscript: (m, t) => writeSync(fd, `${redactor.redact(JSON.stringify({ t: isoInstant(t), ...m }))}
`),
              wakeNote: (w) => run.wakeNote(w),
              ...o.onModelRequest ? { onRequest: o.onModelRequest } : {},
              onStart: () => {
                if (r.config.agent.deadline_guard)
                  installDeadlineGuard({
                    kernel,
                    actorId: actor.id,
                    deadlines: (until) => run.deadlines(ctx.view, until),
                    marginMs: (r.config.agent.deadline_guard_margin_min ?? 60) * 6e4
                  });
              }
            })
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
      const commitTools = new Set(taskTools.flatMap((d) => d.kind === "commit" ? [d.name] : []));
      const results = buildResults({ r, events, report: scorer.report(), wallet, world, truth, commitTools });
      writeJsonAtomic(join(r.runDir, "results.json"), results);
      return results;
    } finally {
      await run.dispose().catch(() => {
      });
    }
  } finally {
    openLedger?.close();
    world.close();
    truth.close();
  }
}
function programOf(r, run, taskTools) {
  const { task } = r;
  const actors = r.agent.kind === "model" && r.config.agent.program !== "single" ? run.program() : null;
  if (!actors) return [{ id: "agent", instruction: run.instruction(), tools: taskTools.map((t) => t.name) }];
  const names = new Set(taskTools.map((t) => t.name));
  const ids = /* @__PURE__ */ new Set();
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
export {
  executeRun,
  resumeRun,
  runFromConfig
};
//# sourceMappingURL=runner.js.map
