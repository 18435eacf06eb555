import { AnthropicModel, resolveAnthropicEndpoint } from "./anthropic-provider.js";
import { CassetteModel } from "./cassette.js";
import { OpenAICompatibleModel, resolveOpenAICompatibleEndpoint } from "./openai-provider.js";
import { isOpenAICompatibleProvider, OPENAI_COMPATIBLE_PROVIDERS, splitModelName } from "./provider-name.js";
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
    const endpoint = resolveAnthropicEndpoint(env);
    return { model: new AnthropicModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  if (isOpenAICompatibleProvider(provider)) {
    o.prices.require(name);
    const endpoint = resolveOpenAICompatibleEndpoint(provider, env);
    return { model: new OpenAICompatibleModel(name, { endpoint, timeoutMs: o.timeoutMs }), priceKey: name };
  }
  throw new Error(
    `unknown model provider "${provider}" in "${name}"; known: ${[...OPENAI_COMPATIBLE_PROVIDERS, "anthropic", "cassette"].join(", ")} (and scripted:<policy> for the scripted agent)`
  );
}
export {
  createModel
};
//# sourceMappingURL=resolve-model.js.map
