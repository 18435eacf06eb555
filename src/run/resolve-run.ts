import { join } from "node:path";
import { getTask } from "../tasks/registry.js";
import type { Episode, ReferencePolicy, TaskDefinition } from "../tasks/task.js";
import { WorldStore } from "../world/world-store.js";
import { ConfigError, type RunConfig, canonicalJson, sha256 } from "./config.js";
import { type WorldLocation, resolveWorldDir } from "./world-resolver.js";

export const HARNESS_VERSION = "0.1.0";

export interface ResolvedRun {
  config: RunConfig;
  task: TaskDefinition<unknown>;
  params: unknown;
  episode: Episode;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
  worldDir: string;
  worldHash: string;
  env_seed: number;
  agentName: string;
  policy: ReferencePolicy;
  scriptedTrigger: "sleep" | "cron";
  runId: string;
  runDir: string;
  /** what config.json holds */
  resolvedConfig: Record<string, unknown>;
}

/** Resolves a validated config against the task registry and the world; throws ConfigError on bad values. */
export function resolveRun(config: RunConfig, o: WorldLocation & { runsDir: string; allowOracle?: boolean; log?: (m: string) => void }): ResolvedRun {
  let task: TaskDefinition<unknown>;
  try {
    task = getTask(config.task);
  } catch (err) {
    throw new ConfigError(`task: ${(err as Error).message}`);
  }
  const parsedParams = task.params.safeParse(config.task_params);
  if (!parsedParams.success)
    throw new ConfigError(
      `invalid task_params for ${task.id}:\n${parsedParams.error.issues.map((i) => `  task_params.${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  const episodeName = config.episode ?? task.defaultEpisode;
  const episode = task.episodes.find((e) => e.name === episodeName);
  if (!episode)
    throw new ConfigError(`episode: task ${task.id} has no episode "${episodeName}"; available: ${task.episodes.map((e) => e.name).join(", ")}`);
  const sim_start = config.sim_start ?? episode.sim_start;
  const sim_end = config.sim_end ?? episode.sim_end;
  if (!(sim_end > sim_start)) throw new ConfigError("sim_end: must be after sim_start");

  const model = config.agent.model ?? `scripted:${defaultPolicy(task).name}`;
  const [provider, name = ""] = splitModel(model);
  if (provider !== "scripted")
    throw new ConfigError(
      `agent.model: "${model}" needs the LLM harness, which this build does not include yet; run a reference policy with scripted:<policy> (policies of ${task.id}: ${task.referencePolicies.map((p) => p.name).join(", ")})`,
    );
  const policy = task.referencePolicies.find((p) => p.name === name);
  if (!policy)
    throw new ConfigError(
      `agent.model: task ${task.id} has no reference policy "${name}"; available: ${task.referencePolicies.map((p) => p.name).join(", ")}`,
    );
  if (policy.oracle && !o.allowOracle)
    throw new ConfigError(`agent.model: "${model}" reads ground truth; it exists for tests and calibration only`);
  const trigger = config.agent.trigger;
  if (trigger === "watcher")
    throw new ConfigError("agent.trigger: the scripted agent runs under the sleep and cron triggers; watcher programs need an LLM agent");
  if (config.feedback !== "none")
    throw new ConfigError(`feedback: "${config.feedback}" needs the feedback channel of the LLM harness; scripted runs use feedback: none`);

  const worldDir = resolveWorldDir(config.world, episode, { start: sim_start, end: sim_end }, o, o.log);
  const ws = WorldStore.open(worldDir);
  const worldHash = ws.manifest.hash;
  ws.close();
  const budget_usd = config.budget_usd ?? task.budget_usd;
  const resolvedConfig = {
    config,
    resolved: {
      task_version: task.version,
      scorer_version: task.scorer_version,
      harness_version: HARNESS_VERSION,
      episode: episode.name,
      sim_start: new Date(sim_start).toISOString(),
      sim_end: new Date(sim_end).toISOString(),
      task_params: parsedParams.data,
      budget_usd,
      agent: model,
      world_hash: worldHash,
    },
  };
  const { seed: _seed, ...withoutSeed } = config;
  const runId = sha256(canonicalJson({ ...withoutSeed, resolved: { ...resolvedConfig.resolved } })).slice(0, 12);
  return {
    config,
    task,
    params: parsedParams.data,
    episode,
    sim_start,
    sim_end,
    budget_usd,
    worldDir,
    worldHash,
    env_seed: Number.parseInt(sha256(`${worldHash}:${task.id}`).slice(0, 8), 16),
    agentName: model,
    policy,
    scriptedTrigger: trigger,
    runId,
    runDir: join(o.runsDir, task.id, slug(model), `${runId}-s${config.seed}`),
    resolvedConfig,
  };
}

export const splitModel = (m: string): [string, string | undefined] => {
  const i = m.indexOf(":");
  return i < 0 ? [m, undefined] : [m.slice(0, i), m.slice(i + 1)];
};

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-");

/** The honest heuristic: the first policy that is neither silent nor an oracle. */
export function defaultPolicy(task: TaskDefinition<unknown>): ReferencePolicy {
  return task.referencePolicies.find((p) => !p.oracle && p.name !== "silent") ?? task.referencePolicies[0]!;
}
