const OPENAI_COMPATIBLE_PROVIDERS = ["openai", "openrouter", "ollama", "vllm", "llamacpp", "local"];
function isOpenAICompatibleProvider(p) {
  return OPENAI_COMPATIBLE_PROVIDERS.includes(p);
}
function splitModelName(name) {
  const i = name.indexOf(":");
  if (i <= 0 || i === name.length - 1) {
    throw new Error(`model name "${name}" must be "provider:model" (e.g. openai:gpt-4.1-mini, ollama:llama3.2)`);
  }
  return { provider: name.slice(0, i), model: name.slice(i + 1) };
}
export {
  OPENAI_COMPATIBLE_PROVIDERS,
  isOpenAICompatibleProvider,
  splitModelName
};
//# sourceMappingURL=provider-name.js.map
