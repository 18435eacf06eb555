/**
 * `createModel(name)`: dispatch on the provider prefix, refusing at launch a model the price table
 * does not list (naming the table) and a provider whose key variable is missing (naming it).
 */
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicModel, resolveAnthropicEndpoint } from "./anthropic-provider.js";
import { CassetteModel } from "./cassette.js";
import type { Model } from "./model.js";
import { OpenAICompatibleModel, resolveOpenAICompatibleEndpoint } from "./openai-provider.js";
import type { PriceTable } from "./price-table.js";
import { isOpenAICompatibleProvider, OPENAI_COMPATIBLE_PROVIDERS, splitModelName } from "./provider-name.js";

export interface CreateModelOptions {
  /** default process.env */
  env?: NodeJS.ProcessEnv;
  /** per-call timeout, ms (default 120,000) */
  timeoutMs?: number;
  prices: PriceTable;
  /** use this base URL instead of the environment's (a resumed run keeps its recorded endpoint) */
  baseURL?: string;
}

export interface CreatedModel {
  model: Model;
  /** the price-table key to bill calls under (a cassette bills as its recorded model) */
  priceKey: string;
}

/**
 * The base URL `name` would be reached at under `env`, without opening a client or needing a key
 * (part of a run's identity); undefined for cassettes and when it cannot be resolved.
 */
export function modelEndpoint(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { provider } = splitModelName(name);
  if (provider === "anthropic") return env.ANTHROPIC_BASE_URL?.trim() || ANTHROPIC_DEFAULT_BASE_URL;
  if (!isOpenAICompatibleProvider(provider)) return undefined;
  try {
    return resolveOpenAICompatibleEndpoint(provider, { ...env, OPENAI_API_KEY: "-", OPENROUTER_API_KEY: "-" }).baseURL;
  } catch {
    return undefined;
  }
}

export function createModel(name: string, o: CreateModelOptions): CreatedModel {
  const env = o.env ?? process.env;
  const { provider, model } = splitModelName(name);
  if (provider === "scripted") {
    throw new Error(
      `"${name}" is not a model: scripted agents are resolved by the runner (it runs the task's reference policy)`,
    );
  }
  if (provider === "cassette") {
    const cassette = CassetteModel.load(model);
    o.prices.require(cassette.recordedModel);
    return { model: cassette, priceKey: cassette.recordedModel };
  }
  if (provider === "anthropic") {
    o.prices.require(name);
    const resolved = resolveAnthropicEndpoint(env);
    const endpoint = o.baseURL ? { ...resolved, baseURL: o.baseURL } : resolved;
    return { model: new AnthropicModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  if (isOpenAICompatibleProvider(provider)) {
    o.prices.require(name);
    const endpoint = resolveOpenAICompatibleEndpoint(
      provider,
      o.baseURL && provider === "local" && !env.LOCAL_BASE_URL ? { ...env, LOCAL_BASE_URL: o.baseURL } : env,
    );
    if (o.baseURL) endpoint.baseURL = o.baseURL;
    return { model: new OpenAICompatibleModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  throw new Error(
    `unknown model provider "${provider}" in "${name}"; known: ${[...OPENAI_COMPATIBLE_PROVIDERS, "anthropic", "cassette"].join(", ")} (and scripted:<policy> for the scripted agent)`,
  );
}
