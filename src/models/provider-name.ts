/** Parsing of `provider:model` names. */

export const OPENAI_COMPATIBLE_PROVIDERS = ["openai", "openrouter", "ollama", "vllm", "llamacpp", "local"] as const;
export type OpenAICompatibleProvider = (typeof OPENAI_COMPATIBLE_PROVIDERS)[number];

export function isOpenAICompatibleProvider(p: string): p is OpenAICompatibleProvider {
  return (OPENAI_COMPATIBLE_PROVIDERS as readonly string[]).includes(p);
}

/** Split `provider:model` at the first colon; throws on a name without one or with an empty part. */
export function splitModelName(name: string): { provider: string; model: string } {
  const i = name.indexOf(":");
  if (i <= 0 || i === name.length - 1) {
    throw new Error(`model name "${name}" must be "provider:model" (e.g. openai:gpt-4.1-mini, ollama:llama3.2)`);
  }
  return { provider: name.slice(0, i), model: name.slice(i + 1) };
}
