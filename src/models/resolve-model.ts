/**
 * `createModel(name)`: dispatch on the provider prefix, refusing at launch a model the price table
 * does not list (naming the table) and a provider whose key variable is missing (naming it).
 */
import { AnthropicModel, resolveAnthropicEndpoint } from "./anthropic-provider.js";
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
}

export interface CreatedModel {
  model: Model;
  /** the price-table key to bill calls under (a cassette bills as its recorded model) */
  priceKey: string;
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
    const endpoint = resolveAnthropicEndpoint(env);
    return { model: new AnthropicModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  if (isOpenAICompatibleProvider(provider)) {
    o.prices.require(name);
    const endpoint = resolveOpenAICompatibleEndpoint(provider, env);
    return { model: new OpenAICompatibleModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  throw new Error(
    `unknown model provider "${provider}" in "${name}"; known: ${[...OPENAI_COMPATIBLE_PROVIDERS, "anthropic", "cassette"].join(", ")} (and scripted:<policy> for the scripted agent)`,
  );
}
