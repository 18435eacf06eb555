import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicModel, resolveAnthropicEndpoint } from "./anthropic-provider.js";
import { CassetteModel } from "./cassette.js";
import { OpenAICompatibleModel, resolveOpenAICompatibleEndpoint } from "./openai-provider.js";
import { isOpenAICompatibleProvider, OPENAI_COMPATIBLE_PROVIDERS, splitModelName } from "./provider-name.js";
function modelEndpoint(name, env = process.env) {
  const { provider } = splitModelName(name);
  if (provider === "anthropic") return env.ANTHROPIC_BASE_URL?.trim() || ANTHROPIC_DEFAULT_BASE_URL;
  if (!isOpenAICompatibleProvider(provider)) return void 0;
  try {
    return resolveOpenAICompatibleEndpoint(provider, { ...env, OPENAI_API_KEY: "-", OPENROUTER_API_KEY: "-" }).baseURL;
  } catch {
    return void 0;
  }
}
function createModel(name, o) {
  const env = o.env ?? process.env;
  const { provider, model } = splitModelName(name);
  if (provider === "scripted") {
    throw new Error(
      `"${name}" is not a model: scripted agents are resolved by the runner (it runs the task's reference policy)`
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
      o.baseURL && provider === "local" && !env.LOCAL_BASE_URL ? { ...env, LOCAL_BASE_URL: o.baseURL } : env
    );
    if (o.baseURL) endpoint.baseURL = o.baseURL;
    return { model: new OpenAICompatibleModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  throw new Error(
    `unknown model provider "${provider}" in "${name}"; known: ${[...OPENAI_COMPATIBLE_PROVIDERS, "anthropic", "cassette"].join(", ")} (and scripted:<policy> for the scripted agent)`
  );
}
export {
  createModel,
  modelEndpoint
};
//# sourceMappingURL=resolve-model.js.map
