import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command } from "commander";
import pc from "picocolors";
import { PULL_SOURCE_NAMES } from "../ingest/pull/source-names.js";
import { ProviderFailedError } from "../models/model.js";
import { ConfigError } from "../run/config-error.js";
import type { Results } from "../run/results.js";
import type { RunOptions } from "../run/runner.js";
import {
  collectValues,
  nonNegativeInt as int,
  mergeTaskParams,
  nonNegative as nonNeg,
  positive as num,
  withEpisodeFlags,
} from "./arg-parsers.js";
import { progressLine, resultWarnings, scoreTable } from "./format.js";

/** exit codes: 2 configuration error, 3 provider failure (the run directory is kept), 4 a broken-measurement flag, 1 anything else */
const EXIT_PROVIDER_FAILED = 3;
const EXIT_BROKEN_MEASUREMENT = 4;

/** Prints the warnings of a finished run and sets a non-zero exit code when a flag says the measurement is broken. */
async function finishWith(r: Results): Promise<void> {
  const { brokenFlags } = await import("../run/results.js");
  for (const w of resultWarnings(r)) process.stderr.write(`${pc.yellow("warning")}: ${w}\n`);
  if (brokenFlags(r).length > 0) process.exitCode = EXIT_BROKEN_MEASUREMENT;
}

import { registerDataBuildCommand, registerDataRecipesCommand } from "./data-build-command.js";
import { registerDataEmbedCommand, registerDataExportCommands, registerDataGcCommand } from "./data-command.js";
import { registerGridCommands } from "./grid-command.js";
import { registerImportCommand } from "./import-command.js";
import { registerReportCommand } from "./report-command.js";
import { registerServeCommand } from "./serve-command.js";

/** A paused run: where it stopped and how to continue. */
function printPaused(res: { runDir: string; paused?: { paused_after_day: number; paused_at: string } }): void {
  const p = res.paused!;
  process.stdout.write(
    `paused after day ${p.paused_after_day} (at ${p.paused_at}): ${res.runDir}\n` +
      `  continue it: relive resume ${res.runDir}\n` +
      `  or branch from it: relive restart ${res.runDir} --from-day ${p.paused_after_day + 1} [--set key=value ...]\n`,
  );
}

// Commands import what they use when they run, so `relive --help` loads commander and little else.
const runner = () => import("../run/runner.js");
const config = () => import("../run/config.js");
const rescore = () => import("../run/rescore.js");

interface Common {
  runs: string;
  cache: string;
  raw?: string;
  data?: string;
  recipes?: string[];
  quiet?: boolean;
}

const runOptions = (o: Common): RunOptions => ({
  runsDir: resolve(o.runs),
  cacheDir: resolve(o.cache),
  ...((o.data ?? o.raw) ? { rawDir: resolve((o.data ?? o.raw) as string) } : {}),
  ...(o.recipes ? { recipeDirs: o.recipes.map((d) => resolve(d)) } : {}),
  log: (m) => process.stderr.write(`${pc.dim(m)}\n`),
  ...(o.quiet ? {} : { onProgress: (p) => process.stderr.write(`${progressLine(p)}\n`) }),
});

const withCommon = (c: Command) =>
  c
    .option("--runs <dir>", "runs directory", process.env.RELIVE_RUNS_DIR ?? "runs")
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option(
      "--data <dir>",
      "data root of world recipes without data_dir: where their relative source paths are found (default $RELIVE_RAW_DIR or ../shared/data/raw)",
    )
    .option("--raw <dir>", "the older name of --data")
    .option(
      "--recipes <dir>",
      "a folder of world recipes whose episodes --episode finds (repeatable; searched before relive.config recipe_dirs and the shipped recipes/)",
      collectValues,
    )
    .option("-q, --quiet", "no per-day progress lines");

const program = new Command()
  .name("relive")
  .description(
    "relive: a gym for long-lived agents. Replays timestamped worlds on a simulated clock and scores timed commitments.",
  )
  .version("0.1.0")
  .option(
    "--project-config <file>",
    "project config listing task modules (default: relive.config.{json,yaml,yml,mjs,js,ts} in the working directory)",
  )
  .showHelpAfterError();

// every command knows the tasks of the project's task modules by id (one existsSync per name when there is no file)
program.hook("preAction", async () => {
  const { loadProjectConfig } = await import("../run/project-config.js");
  const file = (program.opts() as { projectConfig?: string }).projectConfig;
  await loadProjectConfig(file !== undefined ? { file } : {});
});

withCommon(
  program
    .command("run")
    .description(
      "run one episode and print its score table (default: the task's heuristic policy on the synthetic world)",
    )
    .option("-c, --config <file>", "run config (YAML or JSON); flags below override its fields")
    .option("-t, --task <id>", "task id (see `relive tasks`)")
    .option("--task-module <file>", "a file defining the task with defineTask (.js/.mjs, or .ts through tsx)")
    .option("-e, --episode <name>", "episode name (default: the task's default episode)")
    .option(
      "-m, --model <name>",
      "agent: scripted:<policy>, an LLM as provider:model (see `relive models`), or cassette:<llm.jsonl>",
    )
    .option("--trigger <kind>", "sleep | watcher | cron | interval:<duration> (e.g. 15m) | keyword:<regex>")
    .option(
      "--trigger-module <file>",
      "a trigger policy as code: a file exporting check(now, newObservations) → 'wake' | {sleepUntil}",
    )
    .option(
      "--cron-when <file>",
      "--trigger cron: a `when` gate (JavaScript, envkit.handover('wake'|'skip')) run before each firing of the base schedule",
    )
    .option("--effort <level>", "LLM reasoning effort: none | low | medium | high | max")
    .option("--temperature <t>", "LLM sampling temperature", nonNeg)
    .option("--max-output-tokens <n>", "LLM output token cap per call (default 4096)", int)
    .option("--context-tokens <n>", "LLM context limit in tokens (default 60000)", int)
    .option("--deadline-guard", "force a wake 1 h before each task deadline")
    .option("--program <shape>", "LLM runs: task (the task's program shape, e.g. one agent per market) | single")
    .option("--feedback <condition>", "none (blind, default) | oracle (get_feedback on settled outcomes) | self")
    .option(
      "-p, --param <key=value>",
      "a task parameter (repeatable; the value is parsed as JSON when it can be, e.g. -p digest_size=5)",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option("--seed <n>", "repetition label (does not change the world)", int)
    .option("--world-seed <n>", "seed of the synthetic world", int)
    .option("--world <dir>", "a built world directory instead of the synthetic world")
    .option("--budget <usd>", "budget in USD (default: the task's)", num)
    .option("--json", "print results.json instead of the table")
    .option("--stop-after-day <d>", "pause at the end of simulated day D (1-based); `relive resume` continues", int)
    .option(
      "--agent-cmd <command>",
      "an outside agent app as the actor (see src/mcp/README.md): its model traffic goes through the run's metering proxy to -m <provider:model>",
    )
    .option(
      "--agent-name <name>",
      "--agent-cmd: the harness name recorded as external:<name> (default: the command's name)",
    )
    .option("--no-isolation", "--agent-cmd: run the app without network isolation (marked external_no_isolation)")
    .option("--idle-timeout-s <s>", "--agent-cmd: wall-clock seconds without a request before the run is ended", num),
).action(async (o) => {
  const { loadRunConfig, parseRunConfig } = await config();
  const base: Record<string, unknown> = o.config ? { ...loadRunConfig(o.config) } : {};
  const agent = { ...((base.agent as object) ?? {}) } as Record<string, unknown>;
  if (o.model) agent.model = o.model;
  if (o.trigger) agent.trigger = o.trigger;
  if (o.triggerModule) {
    agent.trigger = "policy";
    agent.trigger_module = resolve(o.triggerModule);
  }
  if (o.cronWhen)
    agent.cron_gate = { ...((agent.cron_gate as object | undefined) ?? {}), program: resolve(o.cronWhen) };
  if (o.effort) agent.effort = o.effort;
  if (o.temperature !== undefined) agent.temperature = o.temperature;
  if (o.maxOutputTokens !== undefined) agent.max_output_tokens = o.maxOutputTokens;
  if (o.contextTokens !== undefined) agent.context_tokens = o.contextTokens;
  if (o.deadlineGuard) agent.deadline_guard = true;
  if (o.program) agent.program = o.program;
  const raw: Record<string, unknown> = { ...withEpisodeFlags(base, o), agent };
  if (!raw.task) throw new ConfigError("no task: pass --task <id> or a config with `task:` (see `relive tasks`)");
  if (o.agentCmd) {
    const { agentCommandFromFlags } = await import("../run/agent-command-run.js");
    const res = await agentCommandFromFlags(raw, o, { ...runOptions(o), source: o.config ?? "command-line flags" });
    process.stdout.write(
      o.json ? `${JSON.stringify(res.results, null, 2)}\n` : `${scoreTable(res.results, res.runDir)}\n`,
    );
    return finishWith(res.results);
  }
  const cfg = parseRunConfig(raw, o.config ?? "command-line flags");
  const res = await (await runner()).runFromConfig(cfg, {
    ...runOptions(o),
    ...(o.stopAfterDay !== undefined ? { stopAfterDay: o.stopAfterDay } : {}),
  });
  if (res.paused) return printPaused(res);
  if (res.cached) process.stderr.write(`${pc.yellow("already finished")}: ${res.runDir} (delete it to run again)\n`);
  process.stdout.write(
    o.json ? `${JSON.stringify(res.results, null, 2)}\n` : `${scoreTable(res.results, res.runDir)}\n`,
  );
  await finishWith(res.results);
});

withCommon(
  program
    .command("resume <rundir>")
    .description(
      "continue an interrupted or paused run: re-run from sim_start, check every regenerated ledger line, then go on",
    )
    .option("--stop-after-day <d>", "pause again at the end of simulated day D (1-based)", int),
).action(async (dir, o) => {
  const res = await (await runner()).resumeRun(resolve(dir), {
    ...runOptions(o),
    ...(o.stopAfterDay !== undefined ? { stopAfterDay: o.stopAfterDay } : {}),
  });
  if (res.paused) return printPaused(res);
  process.stdout.write(`${scoreTable(res.results, res.runDir)}\n`);
  await finishWith(res.results);
});

withCommon(
  program
    .command("restart <rundir>")
    .description(
      "a new run from a finished or paused one: re-run it deterministically up to the start of day D (its ledger checked line by line, model replies from its llm.jsonl), then go on live with the changed settings",
    )
    .requiredOption("--from-day <d>", "the 1-based day the changed settings start (2..days of the episode)", int)
    .option(
      "--set <key=value...>",
      "a setting that changes from that day, by run-config path (agent.temperature, agent.effort, agent.max_output_tokens); the value is JSON where it parses",
    )
    .option("--stop-after-day <d>", "pause the new run at the end of simulated day D (1-based)", int)
    .option("--json", "print results.json instead of the table"),
).action(async (dir, o) => {
  const { restartRun } = await import("../run/restart.js");
  const res = await restartRun(
    resolve(dir),
    { fromDay: o.fromDay, set: (o.set as string[] | undefined) ?? [] },
    { ...runOptions(o), ...(o.stopAfterDay !== undefined ? { stopAfterDay: o.stopAfterDay } : {}) },
  );
  if (res.paused) return printPaused(res);
  if (res.cached) process.stderr.write(`${pc.yellow("already finished")}: ${res.runDir} (delete it to run again)\n`);
  process.stdout.write(
    o.json ? `${JSON.stringify(res.results, null, 2)}\n` : `${scoreTable(res.results, res.runDir)}\n`,
  );
  await finishWith(res.results);
});

withCommon(
  program
    .command("rescore <rundir>")
    .description("recompute results from the ledger with the current scorer; lists outcomes that differ"),
).action(async (dir, o) => {
  const { results, diffs } = await (await rescore()).rescoreRun(resolve(dir), runOptions(o));
  process.stdout.write(`${scoreTable(results, resolve(dir))}\n`);
  if (diffs.length === 0) process.stdout.write("outcomes: identical to those recorded\n");
  else {
    process.stdout.write(`${diffs.length} outcome(s) differ from those recorded:\n`);
    for (const d of diffs)
      process.stdout.write(`  ${d.key}: ${JSON.stringify(d.recorded)} -> ${JSON.stringify(d.rescored)}\n`);
  }
});

withCommon(
  program
    .command("replay-triggers [rundir]")
    .description(
      "counterfactual trigger replay (no LLM): the wakes, cost, missed events and deadlines and reaction times " +
        "other trigger policies would have given over a finished run's observation stream, or (--world) over a " +
        "bare imported event log",
    )
    .option(
      "--trigger <policy>",
      "interval:<duration> | keyword:<regex> | a trigger module file (repeatable)",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option("--world <dir>", "replay a bare imported event log (relive data import --events) instead of a run")
    .option("-t, --task <id>", "--world: the task the log is read with (default event-response)")
    .option(
      "-p, --param <key=value>",
      "--world: a task parameter (repeatable), e.g. -p task_file=examples/event-log/task.yaml",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option("--sim-start <time>", "--world: window start, ISO-8601 (default: the world's window)")
    .option("--sim-end <time>", "--world: window end, ISO-8601 (default: the world's window)")
    .option(
      "--cost-per-wake <usd>",
      "cost of one wake (default: the run's spend / its wakes; required with --world)",
      nonNeg,
    )
    .option("--json", "print the report as JSON"),
).action(async (dir: string | undefined, o) => {
  const { replayTriggers, replayTriggersOnWorld } = await import("../run/replay-triggers.js");
  const triggers = (o.trigger as string[] | undefined) ?? [];
  let report: Awaited<ReturnType<typeof replayTriggers>>;
  if (o.world !== undefined) {
    if (dir !== undefined) throw new ConfigError("replay-triggers: give a run directory or --world DIR, not both");
    if (o.costPerWake === undefined)
      throw new ConfigError("replay-triggers --world: give --cost-per-wake USD (a bare log has no recorded spend)");
    report = await replayTriggersOnWorld(resolve(o.world), triggers, {
      ...runOptions(o),
      costPerWakeUsd: o.costPerWake,
      ...(o.task ? { task: o.task } : {}),
      taskParams: mergeTaskParams({}, o.param as string[] | undefined),
      ...(o.simStart ? { simStart: o.simStart } : {}),
      ...(o.simEnd ? { simEnd: o.simEnd } : {}),
    });
  } else {
    if (dir === undefined)
      throw new ConfigError("replay-triggers: give a run directory, or --world DIR for a bare log");
    for (const [flag, v] of [
      ["--task", o.task],
      ["--param", o.param],
      ["--sim-start", o.simStart],
      ["--sim-end", o.simEnd],
    ] as const)
      if (v !== undefined) throw new ConfigError(`replay-triggers: ${flag} goes with --world (a run replays its own)`);
    report = await replayTriggers(resolve(dir), triggers, {
      ...runOptions(o),
      ...(o.costPerWake !== undefined ? { costPerWakeUsd: o.costPerWake } : {}),
    });
  }
  if (o.json) {
    process.stdout.write(`${JSON.stringify(report, (k, v) => (k === "wake_times" ? undefined : v), 2)}\n`);
    return;
  }
  const rec = report.recorded;
  process.stdout.write(
    `${report.task} ${report.sim_start} → ${report.sim_end}; ` +
      (rec
        ? `recorded: ${rec.trigger}, ${rec.wakes} wakes, $${rec.spent_usd.toFixed(4)}; `
        : `event log ${report.world_dir}; `) +
      `cost per wake $${report.cost_per_wake_usd.toFixed(6)}\n`,
  );
  const rows = report.policies.map((p) => [
    p.trigger,
    String(p.wakes),
    `$${p.cost_usd.toFixed(4)}`,
    `${p.events_missed}/${p.events}`,
    `${p.deadlines_missed}/${p.deadlines}`,
    p.reaction_min
      ? `${p.reaction_min.median.toFixed(1)} / ${p.reaction_min.p90.toFixed(1)} / ${p.reaction_min.max.toFixed(1)}`
      : "-",
  ]);
  const head = ["trigger", "wakes", "cost", "events missed", "deadlines missed", "reaction min (median/p90/max)"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows]) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join("  ")}\n`);
});

withCommon(
  program
    .command("judge <rundir>")
    .description(
      "open-forecast: ask a model judge about free-text answers that exact and normalized matching leave " +
        "unsettled, keep its verdicts in the run's judge cache (task_params.judge_cache), then rescore",
    )
    .requiredOption("-m, --model <name>", "the judge model, provider:model (see `relive models`)"),
).action(async (dir, o: Common & { model: string }) => {
  const runDir = resolve(dir);
  const [{ DEFAULT_PRICES_PATH, loadPriceTable }, { createModel }, { modelAnswerJudge }, { judgeRun }] =
    await Promise.all([
      import("../models/price-table.js"),
      import("../models/resolve-model.js"),
      import("../run/model-judge.js"),
      import("../run/judge-run.js"),
    ]);
  const prices = loadPriceTable(DEFAULT_PRICES_PATH);
  let created: import("../models/resolve-model.js").CreatedModel;
  try {
    created = createModel(o.model, { prices });
  } catch (e) {
    throw new ConfigError(`judge model ${o.model}: ${(e as Error).message}`);
  }
  const judge = modelAnswerJudge(created, {
    prices,
    ...(o.quiet
      ? {}
      : {
          onProgress: (done, total, usd) => process.stderr.write(`judged ${done}/${total} pairs, $${usd.toFixed(4)}\n`),
        }),
  });
  const j = await judgeRun(runDir, judge, runOptions(o));
  process.stdout.write(
    j.judged === 0
      ? `judge: every answer pair already has a verdict in ${j.cache} (the model was not called)\n`
      : `judge: ${o.model} ruled on ${j.judged} answer pair(s) for $${judge.spentUsd().toFixed(4)} (grading cost, not the run's); verdicts in ${j.cache}\n`,
  );
  const { results, diffs } = await (await rescore()).rescoreRun(runDir, runOptions(o));
  process.stdout.write(`${scoreTable(results, runDir)}\n`);
  process.stdout.write(`rescored: ${diffs.length} outcome(s) differ from those recorded\n`);
});

program
  .command("tasks")
  .description("list tasks with episodes, tools and metrics")
  .option("--json", "machine-readable")
  .option("--task-module <file>", "also list the tasks a task module defines")
  .option("--recipes <dir>", "also list the episodes of the world recipes in this folder (repeatable)", collectValues)
  .action(async (o) => {
    const [{ loadTaskModule }, { allTasks }, { taskEpisodes }] = await Promise.all([
      import("../run/task-module.js"),
      import("../tasks/registry.js"),
      import("../run/recipe-episodes.js"),
    ]);
    if (o.taskModule) await loadTaskModule(resolve(o.taskModule));
    const rows = allTasks().map((t) => ({
      id: t.id,
      title: t.title,
      axes: t.axes,
      budget_usd: t.budget_usd,
      base_cron: t.baseSchedule,
      episodes: taskEpisodes(
        t,
        ((o.recipes as string[] | undefined) ?? []).map((d) => resolve(d)),
      ).map((e) => ({
        name: e.name,
        world: e.world.kind,
        start: new Date(e.sim_start).toISOString().slice(0, 10),
        end: new Date(e.sim_end - 1).toISOString().slice(0, 10),
      })),
      metrics: t.metrics,
      policies: t.referencePolicies.map((p) => `${p.name}${p.oracle ? " (oracle: tests only)" : ""}`),
    }));
    if (o.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    for (const r of rows) {
      process.stdout.write(`${pc.bold(r.id)} — ${r.title}\n`);
      process.stdout.write(
        `  axes: time ${r.axes.time_sensitivity} / reasoning ${r.axes.reasoning} / ${r.axes.recurrence}; budget $${r.budget_usd}; base cron "${r.base_cron}"\n`,
      );
      process.stdout.write(
        `  episodes: ${r.episodes.map((e) => `${e.name} (${e.world}, ${e.start} → ${e.end})`).join(", ")}\n`,
      );
      process.stdout.write(
        `  primary: ${r.metrics.primary} (${r.metrics.direction} is better); also ${r.metrics.secondary.join(", ")}\n`,
      );
      process.stdout.write(`  reference policies: ${r.policies.join(", ")}\n\n`);
    }
  });

program
  .command("models")
  .description("list the priced models (the pinned price table, or --prices FILE)")
  .option("--prices <file>", "a price table file instead of the pinned one")
  .action(async (o) => {
    const [{ loadPriceTable }, { listModelsTable }] = await Promise.all([
      import("../models/price-table.js"),
      import("../models/list-models.js"),
    ]);
    const table = o.prices ? loadPriceTable(resolve(o.prices)) : loadPriceTable();
    process.stdout.write(listModelsTable(table));
  });

const data = program.command("data").description("build and inspect worlds");
// `data pull` registers one subcommand per source, which loads every fetcher: only when it is named
if (process.argv.slice(2).includes("pull")) (await import("./pull-command.js")).registerPullCommand(data);
else
  data
    .command("pull <source>")
    .description(
      `fetch raw files from a public API, resumably (sources: ${PULL_SOURCE_NAMES.join(", ")}; \`relive data pull --help\` for each one's options)`,
    );
registerImportCommand(data);
registerDataGcCommand(data);
registerDataExportCommands(data);
registerDataEmbedCommand(data);
registerDataBuildCommand(data);
registerDataRecipesCommand(data);
data
  .command("inspect <dir>")
  .description("print a world's manifest")
  .action(async (dir: string) => {
    const { WorldStore } = await import("../world/world-store.js");
    const w = WorldStore.open(resolve(dir));
    process.stdout.write(`${JSON.stringify(w.manifest, null, 2)}\n`);
    w.close();
  });

program
  .command("schema")
  .description("write the JSON Schema of results.json")
  .option("--out <file>", "output file", "schema/results.schema.json")
  .action(async (o) => {
    const { resultsJsonSchema } = await import("../run/results.js");
    mkdirSync(dirname(resolve(o.out)), { recursive: true });
    writeFileSync(resolve(o.out), `${JSON.stringify(resultsJsonSchema(), null, 2)}\n`);
    process.stdout.write(`wrote ${o.out}\n`);
  });

registerReportCommand(program);
registerGridCommands(program);
registerServeCommand(program);
(await import("./mcp-command.js")).registerMcpCommand(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  const e = err as Error;
  if (e instanceof ProviderFailedError) {
    process.stderr.write(`${pc.red("error")}: ${e.message}\n`);
    if (e.runDir)
      process.stderr.write(
        `the run stopped before it could score; its directory is kept: continue it with \`relive resume ${e.runDir}\` once the endpoint works\n`,
      );
    process.exit(EXIT_PROVIDER_FAILED);
  }
  process.stderr.write(`${pc.red("error")}: ${e instanceof ConfigError ? e.message : (e.stack ?? e.message)}\n`);
  process.exit(e instanceof ConfigError ? 2 : 1);
});
