import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import type { ExternalActorFactory, OutsideAgent } from "../mcp/external-actor.js";
import { type MeteringProxy, serveMeteringProxy, type Upstream } from "../mcp/metering-proxy.js";
import { ANTHROPIC_DEFAULT_BASE_URL, resolveAnthropicEndpoint } from "../models/anthropic-provider.js";
import { resolveOpenAICompatibleEndpoint } from "../models/openai-provider.js";
import { isOpenAICompatibleProvider, splitModelName } from "../models/provider-name.js";
import { ConfigError, type RunConfig } from "./config.js";
import { prepareRunWorld } from "./prepare-run-world.js";
import { EXTERNAL_HARNESS, EXTERNAL_MCP, type ResolvedRun, resolveRun } from "./resolve-run.js";
import { executeRun, type RunOptions, type RunOutcome } from "./runner.js";
import { loadConfigTaskModule } from "./task-module.js";

/**
 * An outside-agent run (`relive mcp`): resolved like `relive run` with `agent.model: external:mcp`,
 * in a new run directory, its one actor built by `externalActor`. An outside app is not
 * deterministic, so its runs are not resumable: a directory left by an interrupted one is removed
 * and the run starts from the beginning (logged); a finished one is refused (use another `--seed`).
 */
export async function runExternal(
  given: RunConfig,
  o: RunOptions & {
    externalActor: ExternalActorFactory;
    /** runs once the config is resolved, before the run directory is touched (start the proxy, refuse early) */
    beforeRun?: (r: ResolvedRun) => Promise<void>;
  },
): Promise<RunOutcome> {
  if (!EXTERNAL_HARNESS.test(given.agent.model ?? ""))
    throw new ConfigError(
      `agent.model: an outside-agent run has agent.model external:<name> (e.g. "${EXTERNAL_MCP}"), not "${given.agent.model}"`,
    );
  const cfg = await loadConfigTaskModule(given);
  await prepareRunWorld(cfg, o);
  const r = resolveRun(cfg, o);
  if (existsSync(join(r.runDir, "results.json")))
    throw new ConfigError(
      `run directory ${r.runDir} already holds a finished run of this config: pass another --seed (a repetition label) or delete it`,
    );
  await o.beforeRun?.(r);
  if (existsSync(r.runDir)) {
    o.log?.(`${r.runDir}: an interrupted outside-agent run (not resumable): starting it again from the beginning`);
    rmSync(r.runDir, { recursive: true, force: true });
  }
  mkdirSync(join(r.runDir, "workspace"), { recursive: true });
  try {
    const cfgPath = join(r.runDir, "config.json");
    writeFileSync(`${cfgPath}.tmp`, `${JSON.stringify(r.resolvedConfig, null, 2)}\n`);
    renameSync(`${cfgPath}.tmp`, cfgPath);
    LedgerWriter.create(join(r.runDir, "ledger.jsonl")).close();
  } catch (err) {
    rmSync(r.runDir, { recursive: true, force: true });
    throw err;
  }
  o.log?.(`outside-agent run ${r.runId}: ${r.runDir}`);
  return { runDir: r.runDir, results: await executeRun(r, [], o), cached: false };
}

/**
 * The provider the metering proxy forwards to: `agent.upstream_model` with its base URL and key from
 * the environment (the same variables as in-process runs); null when the config names none.
 */
export function upstreamOf(r: ResolvedRun, env: NodeJS.ProcessEnv = process.env): Upstream | null {
  if (r.agent.kind !== "external" || r.agent.upstream === null) return null;
  const name = r.agent.upstream.name;
  const { provider, model } = splitModelName(name);
  try {
    if (provider === "anthropic") {
      const e = resolveAnthropicEndpoint(env);
      return {
        protocol: "anthropic",
        baseURL: e.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
        apiKey: e.apiKey,
        model,
        priceKey: r.agent.upstream.priceKey,
      };
    }
    if (!isOpenAICompatibleProvider(provider)) throw new Error(`provider "${provider}" is not OpenAI-compatible`);
    const e = resolveOpenAICompatibleEndpoint(provider, env);
    return {
      protocol: "openai",
      baseURL: e.baseURL,
      apiKey: e.apiKey === "unused" ? undefined : e.apiKey,
      model,
      priceKey: r.agent.upstream.priceKey,
    };
  } catch (err) {
    throw new ConfigError(`agent.upstream_model: ${(err as Error).message}`);
  }
}

/** The metering proxy of an outside-agent run (null when the config names no upstream model), with the key the app must use. */
export async function startMeteringProxy(
  r: ResolvedRun,
  outside: OutsideAgent,
  o: { env?: NodeJS.ProcessEnv; port?: number } = {},
): Promise<(MeteringProxy & { key: string; upstream: Upstream }) | null> {
  const upstream = upstreamOf(r, o.env);
  if (upstream === null || r.agent.kind !== "external" || r.agent.upstream === null) return null;
  const { prices, priceKey } = r.agent.upstream;
  // the app's key for the proxy (never the provider's key, which stays in this process)
  const key = `relive-${randomBytes(18).toString("hex")}`;
  const proxy = await serveMeteringProxy(outside, {
    upstream,
    cost: (u) => prices.cost(priceKey, u),
    token: key,
    ...(o.port !== undefined ? { port: o.port } : {}),
  });
  return { ...proxy, key, upstream };
}
