import { existsSync } from "node:fs";
import { isAbsolute, join, resolve as resolvePath } from "node:path";
import { canonicalJson } from "../common/canonical-json.js";
import type { ModelSettings } from "../models/model.js";
import { DEFAULT_PRICES_PATH, loadPriceTable, type PriceTable } from "../models/price-table.js";
import { isOpenAICompatibleProvider } from "../models/provider-name.js";
import { type CreatedModel, createModel, modelEndpoint } from "../models/resolve-model.js";
import { getTask } from "../tasks/registry.js";
import type { AnyTask, Episode, ReferencePolicy } from "../tasks/task.js";
import { TRIGGERS_FOR_MODELS } from "../triggers/create-trigger.js";
import type { TriggerKind } from "../triggers/trigger.js";
import { WORLD_DB } from "../world/world-builder.js";
import { readWorldManifest, WORLD_HOW_TO_FIX } from "../world/world-store.js";
import { type AuxModel, type AuxRole, auxModelNames, resolveAuxModels } from "./aux-models.js";
import { branchPolicy, checkBestOfN } from "./best-of-n-config.js";
import { episodeDays } from "./checkpoint.js";
import { ConfigError, type RunConfig, sha256 } from "./config.js";
import { type CronGateFile, readCronGateFile } from "./cron-gate-file.js";
import { checkDeadlineGuardMargin } from "./deadline-lead.js";
import { knowledgeCutoffWarning } from "./knowledge-cutoff.js";
import { type LearningSettings, resolveLearning } from "./learning-config.js";
import { taskEpisodes } from "./recipe-episodes.js";
import { taskModuleIdentity } from "./task-module.js";
import { triggerModuleIdentity } from "./trigger-module.js";
import { checkWorldFitsTask, worldDirEpisode } from "./world-check.js";
import { resolveWorldDir, type WorldLocation } from "./world-resolver.js";

/**
 * Part of every run's identity: bumped whenever what models are sent changes for an unchanged config
 * (0.2.0: instructions, tool docs once, the state block; 0.3.0: cron's schedule tools take a `when`
 * gate, and the cron "how you run" text says so).
 */
export const HARNESS_VERSION = "0.3.0";

export interface ResolvedRun {
  config: RunConfig;
  task: AnyTask;
  params: unknown;
  episode: Episode;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
  worldDir: string;
  worldHash: string;
  env_seed: number;
  agentName: string;
  agent: ResolvedAgent;
  runId: string;
  runDir: string;
  /** what config.json holds */
  resolvedConfig: Record<string, unknown>;
  /** memory, memory tools and the memory scaffolding switches, resolved (src/run/learning-config.ts) */
  learning: LearningSettings;
  /** `agent.cron_gate.program`, read once (its sha256 is part of the run's identity) */
  cronGate: CronGateFile | null;
  /** the curator's and the proposer's own models when they name one other than the run's (src/run/aux-models.ts) */
  aux: Partial<Record<AuxRole, AuxModel>>;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/** `agent.request_timeout_s` when unset */
export const DEFAULT_REQUEST_TIMEOUT_S = 120;

export type ResolvedAgent =
  | { kind: "scripted"; policy: ReferencePolicy; trigger: TriggerKind }
  | {
      kind: "model";
      /** `provider:model` as configured */
      name: string;
      /** the price-table key calls are billed under (a cassette bills as its recorded model) */
      priceKey: string;
      prices: PriceTable;
      settings: ModelSettings;
      contextTokens: number;
      trigger: TriggerKind;
      /** the base URL (part of the run's identity for runs that record it); undefined for cassettes */
      endpoint: string | undefined;
      /** the provider client (null when resolved without checking the model, e.g. for rescore) */
      created: CreatedModel | null;
    }
  /** an outside agent app driving the run's tools over MCP (`relive mcp`): one actor under the sleep trigger */
  | {
      kind: "external";
      harness: string;
      trigger: "sleep";
      /** `agent.upstream_model`: what the metering proxy forwards to (null: no proxy, the app brings its own model) */
      upstream: { name: string; priceKey: string; prices: PriceTable; endpoint: string | undefined } | null;
    };

/** The recorded harness of LLM runs driven by relive's own ReAct loop (outside apps record `external:<name>`). */
export const RELIVE_REACT = "relive-react";
/** `agent.model` of a run whose actor is an outside agent app speaking MCP (`relive mcp`); also its recorded harness */
export const EXTERNAL_MCP = "external:mcp";
/** `external:<name>`: an outside app as the actor (`relive mcp`: `external:mcp`; `relive run --agent-cmd`: the app's name) */
export const EXTERNAL_HARNESS = /^external:[a-z0-9][a-z0-9._-]{0,63}$/;

export interface ResolveOptions {
  runsDir: string;
  allowOracle?: boolean;
  log?: (m: string) => void;
  /** environment for provider keys and base URLs (default process.env) */
  env?: NodeJS.ProcessEnv;
  /** per-call model timeout in ms (overrides agent.request_timeout_s) */
  modelTimeoutMs?: number;
  /**
   * The endpoint recorded by the run being resumed or rescored: used instead of the environment's
   * base URL; null = a run recorded before endpoints were part of a run's identity (none recorded).
   */
  endpoint?: string | null;
  /** false: do not open the model (rescore reads the ledger only) */
  checkModel?: boolean;
  /** the endpoints of the harness-side models (curator, proposer) recorded by the run being resumed */
  auxEndpoints?: Partial<Record<AuxRole, string | null>>;
}

/** The price table of a run: the pinned prices.yaml, or the config's `model_prices` (a file, or rows merged over it). */
export function priceTableOf(config: RunConfig): PriceTable {
  const mp = config.model_prices;
  try {
    if (mp === undefined) return loadPriceTable(DEFAULT_PRICES_PATH);
    if (typeof mp === "string") return loadPriceTable(isAbsolute(mp) ? mp : resolvePath(mp));
    return loadPriceTable(DEFAULT_PRICES_PATH, mp);
  } catch (err) {
    throw new ConfigError(`model_prices: ${(err as Error).message}`);
  }
}

/** The task and episode a config names (a world dir's own episode, the task's, or a recipe's on the search path). */
export function resolveTaskEpisode(
  config: RunConfig,
  o: Pick<WorldLocation, "recipeDirs">,
): { task: AnyTask; episode: Episode } {
  let task: AnyTask;
  try {
    task = getTask(config.task);
  } catch (err) {
    throw new ConfigError(`task: ${(err as Error).message}`);
  }
  const episodeName = config.episode ?? task.defaultEpisode;
  let episode = worldDirEpisode(config) ?? task.episodes.find((e) => e.name === episodeName);
  if (!episode) {
    // not one of the task's own: the episodes of the recipes on the search path
    const all = taskEpisodes(task, o.recipeDirs);
    episode = all.find((e) => e.name === episodeName);
    if (!episode)
      throw new ConfigError(
        `episode: task ${task.id} has no episode "${episodeName}"; available: ${all.map((e) => e.name).join(", ")} ` +
          "(recipe episodes come from --recipes DIR, relive.config recipe_dirs and the shipped recipes/)",
      );
  }
  return { task, episode };
}

/**
 * Resolves a validated config against the task registry and the world; throws ConfigError on bad
 * values. Synchronous: a recipe world of a streamed importer (WARC, Polymarket, Reddit, JSONL news,
 * events) must have been made ready first by `await prepareRunWorld(config, o)`
 * (src/run/prepare-run-world.ts), which every entry point does; otherwise the error says so.
 */
export function resolveRun(config: RunConfig, o: WorldLocation & ResolveOptions): ResolvedRun {
  const { task, episode } = resolveTaskEpisode(config, o);
  // the episode's default params (a recipe's), under the run's own
  const taskParams = episode.params ? { ...episode.params, ...(config.task_params ?? {}) } : config.task_params;
  const parsedParams = task.params.safeParse(taskParams);
  if (!parsedParams.success)
    throw new ConfigError(
      `invalid task_params for ${task.id}${episode.params ? ` (with the defaults of episode ${episode.name})` : ""}:\n${parsedParams.error.issues.map((i) => `  task_params.${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  const sim_start = config.sim_start ?? episode.sim_start;
  const sim_end = config.sim_end ?? episode.sim_end;
  if (!(sim_end > sim_start)) throw new ConfigError("sim_end: must be after sim_start");

  const model = config.agent.model ?? `scripted:${defaultPolicy(task).name}`;
  const [provider, name = ""] = splitModel(model);
  const trigger = config.agent.trigger;
  if (config.feedback === "self" && !task.selfFeedback)
    throw new ConfigError(
      `feedback: task ${task.id} defines no "self" feedback (self labels exist only where a task lists them); use feedback: none or oracle`,
    );
  checkDeadlineGuardMargin(config, task, parsedParams.data);
  const learning = resolveLearning({
    feedback: config.feedback,
    taskSelf: task.selfFeedback !== undefined,
    llmAgent: !model.startsWith("scripted:") && provider !== "external",
    taskMemoryDefault: task.memoryToolsDefault?.(parsedParams.data) ?? false,
    episodeDays: episodeDays(sim_start, sim_end),
    agent: config.agent,
  });
  const surface = learning.optimizer?.surface ?? [];
  for (const x of surface) {
    if (x === "tunable" && Object.keys(task.tunable ?? {}).length === 0)
      throw new ConfigError(`agent.learning.surface: task ${task.id} declares no tunable params`);
    if (x === "watcher_program" && trigger !== "watcher")
      throw new ConfigError(
        `agent.learning.surface: a watcher program is editable only under the watcher trigger (the run's is "${trigger}")`,
      );
  }
  let agent: ResolvedAgent;
  let aux: Partial<Record<AuxRole, AuxModel>> = {};
  if (config.agent.upstream_model !== undefined && provider !== "external")
    throw new ConfigError(
      `agent.upstream_model: only outside agents (agent.model external:<name>) have an upstream model; "${model}" is called directly`,
    );
  if (provider === "scripted") {
    const policy = task.referencePolicies.find((p) => p.name === name);
    if (!policy)
      throw new ConfigError(
        `agent.model: task ${task.id} has no reference policy "${name}"; available: ${task.referencePolicies.map((p) => p.name).join(", ")}`,
      );
    if (policy.oracle && !o.allowOracle)
      throw new ConfigError(`agent.model: "${model}" reads ground truth; it exists for tests and calibration only`);
    checkBestOfN(bestOfNInput(config, task, sim_start, sim_end, policy, false));
    // a Best-of-N branch k ≥ 1 runs the policy's parameter draw (src/run/best-of-n-config.ts)
    agent = { kind: "scripted", policy: branchPolicy(policy, config), trigger };
  } else if (provider === "external") {
    if (!EXTERNAL_HARNESS.test(model))
      throw new ConfigError(
        `agent.model: outside-agent harness "${model}" must be external:<name> (lowercase letters, digits, . _ -), e.g. ${EXTERNAL_MCP}`,
      );
    if (trigger !== "sleep")
      throw new ConfigError(
        `agent.trigger: an outside agent (${EXTERNAL_MCP}) moves the clock with its sleep tool; only trigger "sleep" is available`,
      );
    const up = config.agent.upstream_model;
    let upstream: Extract<ResolvedAgent, { kind: "external" }>["upstream"] = null;
    if (up !== undefined) {
      const prices = priceTableOf(config);
      const p = up.split(":")[0] ?? "";
      if (!up.includes(":") || !(p === "anthropic" || isOpenAICompatibleProvider(p)))
        throw new ConfigError(
          `agent.upstream_model: "${up}" must be provider:model with an OpenAI-compatible provider or anthropic (see \`relive models\`)`,
        );
      try {
        prices.require(up);
      } catch (err) {
        throw new ConfigError(`agent.upstream_model: ${(err as Error).message}`);
      }
      upstream = { name: up, priceKey: up, prices, endpoint: safeEndpoint(up, o.env) };
    }
    checkBestOfN(bestOfNInput(config, task, sim_start, sim_end, null, true));
    agent = { kind: "external", harness: model, trigger, upstream };
  } else {
    if (!TRIGGERS_FOR_MODELS.includes(trigger))
      throw new ConfigError(
        `agent.trigger: "${trigger}" is not available in this build; use ${TRIGGERS_FOR_MODELS.join(" or ")}`,
      );
    const prices = priceTableOf(config);
    let created: CreatedModel | null = null;
    let priceKey = model;
    const timeoutMs = o.modelTimeoutMs ?? (config.agent.request_timeout_s ?? DEFAULT_REQUEST_TIMEOUT_S) * 1000;
    if (o.checkModel !== false) {
      try {
        created = createModel(model, {
          prices,
          timeoutMs,
          ...(o.env ? { env: o.env } : {}),
          ...(typeof o.endpoint === "string" ? { baseURL: o.endpoint } : {}),
        });
      } catch (err) {
        throw new ConfigError(`agent.model: ${(err as Error).message}`);
      }
      priceKey = created.priceKey;
    }
    checkBestOfN(bestOfNInput(config, task, sim_start, sim_end, null, false));
    const settings: ModelSettings = {
      maxOutputTokens: config.agent.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      ...(config.agent.temperature !== undefined ? { temperature: config.agent.temperature } : {}),
      ...(config.agent.effort !== undefined ? { effort: config.agent.effort } : {}),
    };
    aux = resolveAuxModels(config, model, prices, {
      ...(o.env ? { env: o.env } : {}),
      timeoutMs,
      checkModel: o.checkModel !== false,
      ...(o.auxEndpoints ? { endpoints: o.auxEndpoints } : {}),
    });
    agent = {
      kind: "model",
      name: model,
      priceKey,
      prices,
      settings,
      contextTokens: config.agent.context_tokens,
      trigger,
      created,
      endpoint:
        o.endpoint === null
          ? undefined
          : (o.endpoint ??
            created?.model.endpoint ??
            (provider === "cassette" ? undefined : safeEndpoint(model, o.env))),
    };
  }

  if (agent.kind !== "model" && Object.keys(auxModelNames(config)).length)
    throw new ConfigError(
      `${Object.keys(auxModelNames(config))
        .map((x) => (x === "curator" ? "agent.curator.model" : "agent.learning.proposer"))
        .join(", ")}: a harness-side model of its own needs an LLM run (agent.model provider:model)`,
    );
  const cutoffNote = knowledgeCutoffWarning(agent, sim_start);
  if (cutoffNote !== null) o.log?.(cutoffNote);
  const worldDir = resolveWorldDir(config.world, episode, { start: sim_start, end: sim_end }, o, o.log);
  // the manifest is all a resolution needs: world.json, not the database (its stores open with the run)
  const manifest = readWorldManifest(worldDir);
  if (!existsSync(join(worldDir, WORLD_DB)))
    throw new Error(`world directory ${worldDir} has no ${WORLD_DB}: ${WORLD_HOW_TO_FIX}`);
  const worldHash = manifest.hash;
  if ("dir" in config.world) checkWorldFitsTask(task, worldDir, manifest, { start: sim_start, end: sim_end });
  else if (episode.world.kind === "recipe")
    checkWorldFitsTask(
      task,
      worldDir,
      manifest,
      { start: sim_start, end: sim_end },
      `the world of recipe ${episode.world.recipe} (episode ${episode.name})`,
    );
  const budget_usd = config.budget_usd ?? task.budget_usd;
  const cronGate =
    config.agent.cron_gate?.program !== undefined ? readCronGateFile(config.agent.cron_gate.program) : null;
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
      ...(config.task_module !== undefined ? { task_module: taskModuleIdentity(config.task_module) } : {}),
      ...(config.agent.trigger_module !== undefined
        ? { trigger_module: triggerModuleIdentity(config.agent.trigger_module) }
        : {}),
      ...(cronGate !== null ? { cron_gate: { path: cronGate.path, sha256: cronGate.sha256 } } : {}),
      ...(agent.kind === "external"
        ? {
            harness: agent.harness,
            ...(agent.upstream
              ? {
                  upstream: {
                    name: agent.upstream.name,
                    price: agent.upstream.prices.lookup(agent.upstream.priceKey),
                    ...(agent.upstream.endpoint !== undefined ? { endpoint: agent.upstream.endpoint } : {}),
                  },
                }
              : {}),
          }
        : {}),
      ...(agent.kind === "model" && Object.keys(aux).length
        ? {
            aux_models: Object.fromEntries(
              Object.entries(aux).map(([role, m]) => [
                role,
                {
                  name: m.name,
                  price_key: m.priceKey,
                  price: agent.prices.lookup(m.priceKey),
                  ...(m.endpoint !== undefined ? { endpoint: m.endpoint } : {}),
                },
              ]),
            ),
          }
        : {}),
      ...(agent.kind === "model"
        ? {
            model: {
              name: model,
              price_key: agent.priceKey,
              price: agent.prices.lookup(agent.priceKey),
              settings: agent.settings,
              context_tokens: agent.contextTokens,
              // a different endpoint is a different run (a fixed server must not inherit a broken run's id)
              ...(agent.endpoint !== undefined ? { endpoint: agent.endpoint } : {}),
              deadline_guard: config.agent.deadline_guard,
              ...(task.multiActor ? { program: config.agent.program ?? "task" } : {}),
              ...(trigger === "cron" ? { cron_base: config.agent.cron_base } : {}),
            },
          }
        : {}),
    },
  };
  const { seed: _seed, ...withoutSeed } = config;
  // identity of the resolved run: defaults written out and left out hash alike (an unset model is
  // the task's default policy, an unset episode the default episode, unset params their defaults)
  const identity = {
    ...withoutSeed,
    episode: episode.name,
    task_params: parsedParams.data,
    budget_usd,
    agent: { ...config.agent, model },
  };
  const runId = sha256(canonicalJson({ ...identity, resolved: { ...resolvedConfig.resolved } })).slice(0, 12);
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
    agent,
    runId,
    runDir: join(o.runsDir, task.id, slug(model), `${runId}-s${config.seed}`),
    resolvedConfig,
    learning,
    cronGate,
    aux,
  };
}

const safeEndpoint = (model: string, env: NodeJS.ProcessEnv | undefined) => {
  try {
    return modelEndpoint(model, env);
  } catch {
    return undefined;
  }
};

/** The endpoint a run directory's config.json recorded (null when it predates recorded endpoints). */
export function recordedEndpoint(saved: { resolved?: { model?: { endpoint?: unknown } } }): string | null {
  const e = saved.resolved?.model?.endpoint;
  return typeof e === "string" ? e : null;
}

export const splitModel = (m: string): [string, string | undefined] => {
  const i = m.indexOf(":");
  return i < 0 ? [m, undefined] : [m.slice(0, i), m.slice(i + 1)];
};

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-");

/** The honest heuristic: the first policy that is neither silent nor an oracle. */
export function defaultPolicy(task: AnyTask): ReferencePolicy {
  return task.referencePolicies.find((p) => !p.oracle && p.name !== "silent") ?? task.referencePolicies[0]!;
}

const bestOfNInput = (
  config: RunConfig,
  task: AnyTask,
  sim_start: number,
  sim_end: number,
  policy: ReferencePolicy | null,
  external: boolean,
) => ({ config, taskId: task.id, taskSelf: task.selfFeedback !== undefined, sim_start, sim_end, policy, external });
