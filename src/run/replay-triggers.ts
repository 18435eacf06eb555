import { existsSync } from "node:fs";
import { join } from "node:path";
import { quantileOf } from "../tasks/metrics.js";
import type { Observation, TaskRun, TaskRunContext } from "../tasks/task.js";
import { POLICY_RECHECK_MS } from "../triggers/policy-trigger.js";
import {
  builtInTriggerPolicy,
  isTriggerPolicyName,
  TriggerDecisionSchema,
  type TriggerPolicy,
} from "../triggers/trigger-policy.js";
import { WorldStore } from "../world/world-store.js";
import { parseRunConfig } from "./config.js";
import { ConfigError } from "./config-error.js";
import { prepareRunWorld } from "./prepare-run-world.js";
import { type ResolvedRun, type ResolveOptions, resolveRun } from "./resolve-run.js";
import { readResultsFile } from "./results.js";
import { readRunConfigFile } from "./run-config-file.js";
import { openTaskAsOf } from "./task-as-of.js";
import { loadConfigTaskModule } from "./task-module.js";
import { loadTriggerModule } from "./trigger-module.js";
import type { WorldLocation } from "./world-resolver.js";

/** What one trigger policy would have done over a recorded run's observation stream. */
export interface ReplayedPolicy {
  trigger: string;
  /** wakes, the bootstrap wake at sim_start included (as in a real run) */
  wakes: number;
  /** wakes × the cost per wake */
  cost_usd: number;
  /** observations that became visible in the window */
  events: number;
  /** of those, seen by no wake before sim_end */
  events_missed: number;
  /** task deadlines in the window (`TaskRun.deadlines`, each from the instant it became known) */
  deadlines: number;
  /** of those, with no wake in [known, deadline) */
  deadlines_missed: number;
  /** minutes from an observation becoming visible to the first wake at or after it */
  reaction_min: { n: number; median: number; p90: number; max: number } | null;
  /** the wake instants (epoch ms) */
  wake_times: number[];
}

export interface ReplayReport {
  /** the recorded run replayed (null: a bare event log, `--world`) */
  run_dir: string | null;
  /** the world replayed */
  world_dir: string;
  task: string;
  sim_start: string;
  sim_end: string;
  /** the recorded run: its wakes and spend (null for a bare log) */
  recorded: { trigger: string; wakes: number; spent_usd: number } | null;
  /** recorded spend / recorded wakes, or `--cost-per-wake` */
  cost_per_wake_usd: number;
  policies: ReplayedPolicy[];
}

export interface ReplayOptions extends WorldLocation, ResolveOptions {
  /** override of the recorded run's mean cost per wake */
  costPerWakeUsd?: number;
}

/** `relive replay-triggers --world DIR`: a bare event log, no recorded run. */
export interface WorldReplayOptions extends ReplayOptions {
  /** the task the log is read with (default `event-response`) */
  task?: string;
  /** its parameters (event-response: `task_file`) */
  taskParams?: Record<string, unknown>;
  /** the window (ISO-8601 or epoch ms; default the world's own window, whole UTC days) */
  simStart?: string | number;
  simEnd?: string | number;
  /** required: there is no recorded spend to take a mean from */
  costPerWakeUsd: number;
}

/** The task a bare event log is replayed with when `--task` is not given. */
export const WORLD_REPLAY_TASK = "event-response";

/**
 * `relive replay-triggers RUNDIR --trigger ...`: counterfactual trigger replay without an LLM. The
 * recorded run's task is opened over its world with a clock the replay moves; each policy is asked
 * `check(now, newObservations)` exactly as the policy trigger asks it in a run (the task's
 * `observations(since, now)` through the as-of view at `now`, never later; a "wake" at the instant of
 * the previous wake is asked again a minute later), so a policy sees only what was visible at each
 * check. Scoring the wakes (events and deadlines missed, reaction times) uses the whole window, as
 * a scorer does. Cost = wakes × the recorded run's mean cost per wake (or `costPerWakeUsd`).
 */
export async function replayTriggers(runDir: string, triggers: string[], o: ReplayOptions): Promise<ReplayReport> {
  if (triggers.length === 0) throw new ConfigError("replay-triggers: give at least one --trigger");
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new ConfigError(`${runDir} is not a run directory (no config.json)`);
  const resultsPath = join(runDir, "results.json");
  if (!existsSync(resultsPath)) throw new ConfigError(`${runDir} has no results.json (replay a finished run)`);
  const saved = readRunConfigFile(cfgPath);
  await loadConfigTaskModule(saved.config);
  const policies = await policyFactories(triggers);
  await prepareRunWorld(saved.config, o);
  const r = resolveRun(saved.config, { ...o, checkModel: false });
  const results = readResultsFile(resultsPath);
  const recorded = {
    trigger: saved.config.agent.trigger_policy ?? saved.config.agent.trigger,
    wakes: results.resources.wakes,
    spent_usd: results.resources.spent_usd,
  };
  const perWake = checkPerWake(
    o.costPerWakeUsd ?? (recorded.wakes > 0 ? recorded.spent_usd / recorded.wakes : 0),
    o.costPerWakeUsd,
  );
  return { run_dir: runDir, recorded, ...(await replayOver(r, triggers, policies, perWake)) };
}

/**
 * `relive replay-triggers --world DIR`: the same replay over a bare imported event log (no recorded
 * run): the log is opened with `task` (default event-response, its task file in `taskParams`) over
 * the world's own window unless `simStart`/`simEnd` say otherwise; cost is wakes × `costPerWakeUsd`.
 */
export async function replayTriggersOnWorld(
  worldDir: string,
  triggers: string[],
  o: WorldReplayOptions,
): Promise<ReplayReport> {
  if (triggers.length === 0) throw new ConfigError("replay-triggers: give at least one --trigger");
  const perWake = checkPerWake(o.costPerWakeUsd, o.costPerWakeUsd);
  if (!existsSync(join(worldDir, "world.json")))
    throw new ConfigError(
      `--world ${worldDir}: not a world directory (no world.json); import a log with \`relive data import --events\``,
    );
  const world = WorldStore.open(worldDir);
  const window = world.manifest.window;
  world.close();
  const config = parseRunConfig(
    {
      task: o.task ?? WORLD_REPLAY_TASK,
      world: { dir: worldDir },
      task_params: o.taskParams ?? {},
      sim_start: o.simStart ?? window.start,
      sim_end: o.simEnd ?? window.end,
    },
    "replay-triggers --world",
  );
  await loadConfigTaskModule(config);
  const policies = await policyFactories(triggers);
  const r = resolveRun(config, { ...o, checkModel: false });
  return { run_dir: null, recorded: null, ...(await replayOver(r, triggers, policies, perWake)) };
}

function checkPerWake(v: number, given: number | undefined): number {
  if (!(Number.isFinite(v) && v >= 0)) throw new ConfigError(`--cost-per-wake: not a non-negative number: ${given}`);
  return v;
}

async function policyFactories(triggers: string[]): Promise<(() => TriggerPolicy)[]> {
  const policies: (() => TriggerPolicy)[] = [];
  for (const spec of triggers) policies.push(await policyFactory(spec));
  return policies;
}

/**
 * Replays each policy over `r`'s task and world. The task is opened with a clock the replay moves
 * (`openTaskAsOf`): a policy is asked only at `now` with the observations of (since, now] through the
 * view bounded at `now`; the yardstick (every observation, when each deadline became known) is read
 * afterwards in hindsight, as a scorer does.
 */
async function replayOver(
  r: ResolvedRun,
  triggers: string[],
  policies: (() => TriggerPolicy)[],
  perWake: number,
): Promise<Omit<ReplayReport, "run_dir" | "recorded">> {
  const t = openTaskAsOf(r);
  const { run, ctx, clock } = t;
  try {
    run.tools();
    const out: ReplayedPolicy[] = [];
    const wakeTimes = policies.map((make) => replayWakes(make(), run, clock, r.sim_start, r.sim_end));
    // the yardstick (hindsight, like a scorer): every observation and when each deadline became known
    clock.t = r.sim_end;
    const all = run.observations(r.sim_start, r.sim_end).filter((x) => x.t >= r.sim_start && x.t < r.sim_end);
    const known = knownDeadlines(run, ctx, clock, r.sim_start, r.sim_end, all);
    for (const [i, w] of wakeTimes.entries()) out.push(measure(triggers[i]!, w, all, known, perWake, r.sim_end));
    return {
      world_dir: r.worldDir,
      task: r.task.id,
      sim_start: new Date(r.sim_start).toISOString(),
      sim_end: new Date(r.sim_end).toISOString(),
      cost_per_wake_usd: perWake,
      policies: out,
    };
  } finally {
    await t.close();
  }
}

async function policyFactory(spec: string): Promise<() => TriggerPolicy> {
  if (isTriggerPolicyName(spec)) {
    try {
      builtInTriggerPolicy(spec);
    } catch (err) {
      throw new ConfigError(`--trigger: ${(err as Error).message}`);
    }
    return () => builtInTriggerPolicy(spec);
  }
  if (/\.(c|m)?[jt]s$/.test(spec)) return loadTriggerModule(spec);
  throw new ConfigError(
    `--trigger "${spec}": replay takes interval:<duration>, keyword:<regex> or a trigger module file (.js/.mjs/.ts)`,
  );
}

/** The wakes `policy` gives, asked exactly as the policy trigger asks it in a run. */
function replayWakes(policy: TriggerPolicy, run: TaskRun, clock: { t: number }, start: number, end: number): number[] {
  const wakes = [start];
  let awake = start;
  let since = start;
  let now = start;
  while (now < end) {
    clock.t = now;
    const obs = run.observations(since, now);
    since = now;
    let raw: unknown;
    try {
      raw = policy.check(now, obs);
    } catch {
      raw = "wake"; // fails open, as in a run
    }
    const d = TriggerDecisionSchema.safeParse(raw);
    let next: number;
    if (!d.success || d.data === "wake" || !(d.data.sleepUntil > now)) {
      if (now > awake) {
        wakes.push(now);
        awake = now;
        continue;
      }
      next = now + POLICY_RECHECK_MS;
    } else next = d.data.sleepUntil;
    now = next;
  }
  return wakes;
}

/** deadline → the first instant it was known (asked at sim_start and at each observation's instant) */
function knownDeadlines(
  run: TaskRun,
  ctx: TaskRunContext<unknown>,
  clock: { t: number },
  start: number,
  end: number,
  all: Observation[],
): Map<number, number> {
  const known = new Map<number, number>();
  const instants = [...new Set([start, ...all.map((x) => x.t)])].sort((a, b) => a - b);
  for (const t of instants) {
    clock.t = t;
    for (const d of run.deadlines(ctx.view, end)) if (d >= t && !known.has(d)) known.set(d, t);
  }
  return known;
}

function measure(
  trigger: string,
  wakes: number[],
  all: Observation[],
  known: Map<number, number>,
  perWake: number,
  end: number,
): ReplayedPolicy {
  // first wake at or after t (wakes are increasing)
  const firstFrom = (t: number): number | null => {
    let lo = 0;
    let hi = wakes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (wakes[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo < wakes.length ? wakes[lo]! : null;
  };
  const reactions: number[] = [];
  let eventsMissed = 0;
  for (const x of all) {
    const w = firstFrom(x.t);
    if (w === null || w >= end) eventsMissed++;
    else reactions.push((w - x.t) / 60_000);
  }
  let deadlinesMissed = 0;
  for (const [d, k] of known) {
    const w = firstFrom(k);
    if (w === null || w >= d) deadlinesMissed++;
  }
  const sorted = [...reactions].sort((a, b) => a - b);
  return {
    trigger,
    wakes: wakes.length,
    cost_usd: wakes.length * perWake,
    events: all.length,
    events_missed: eventsMissed,
    deadlines: known.size,
    deadlines_missed: deadlinesMissed,
    reaction_min:
      sorted.length === 0
        ? null
        : { n: sorted.length, median: quantileOf(sorted, 0.5)!, p90: quantileOf(sorted, 0.9)!, max: sorted.at(-1)! },
    wake_times: wakes,
  };
}
