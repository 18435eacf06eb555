import OpenAI from "openai";
import { mapSdkError } from "./http-error.js";
import {
  ModelError
} from "./model.js";
import { isOpenAICompatibleProvider, splitModelName } from "./provider-name.js";
const ENDPOINTS = {
  openai: {
    baseEnv: "OPENAI_BASE_URL",
    defaultBase: "https://api.openai.com/v1",
    keyEnv: "OPENAI_API_KEY",
    keyRequired: true
  },
  openrouter: {
    baseEnv: "OPENROUTER_BASE_URL",
    defaultBase: "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    keyRequired: true
  },
  ollama: { baseEnv: "OLLAMA_BASE_URL", defaultBase: "http://127.0.0.1:11434/v1", keyRequired: false },
  vllm: {
    baseEnv: "VLLM_BASE_URL",
    defaultBase: "http://127.0.0.1:8000/v1",
    keyEnv: "VLLM_API_KEY",
    keyRequired: false
  },
  llamacpp: {
    baseEnv: "LLAMACPP_BASE_URL",
    defaultBase: "http://127.0.0.1:8080/v1",
    keyEnv: "LLAMACPP_API_KEY",
    keyRequired: false
  },
  local: { baseEnv: "LOCAL_BASE_URL", keyEnv: "LOCAL_API_KEY", keyRequired: false }
};
function resolveOpenAICompatibleEndpoint(provider, env) {
  const rule = ENDPOINTS[provider];
  const base = env[rule.baseEnv]?.trim() || rule.defaultBase;
  if (!base) {
    throw new Error(`${provider}: models need ${rule.baseEnv} set to the server's base URL (e.g. http://host:port/v1)`);
  }
  const key = rule.keyEnv ? env[rule.keyEnv]?.trim() : void 0;
  if (rule.keyRequired && !key) {
    throw new Error(`${provider}: models need an API key: set the environment variable ${rule.keyEnv}`);
  }
  return { baseURL: base, apiKey: key || "unused" };
}
function toOpenAIMessages(system, messages) {
  const out = [];
  if (system !== "") out.push({ role: "system", content: system });
  for (const m of messages) {
    switch (m.role) {
      case "user":
        out.push({ role: "user", content: m.content });
        break;
      case "assistant": {
        const calls = m.tool_calls ?? [];
        if (calls.length > 0) {
          out.push({
            role: "assistant",
            content: m.content,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments }
            }))
          });
        } else {
          out.push({ role: "assistant", content: m.content ?? "" });
        }
        break;
      }
      case "tool":
        out.push({ role: "tool", tool_call_id: m.tool_call_id, content: m.content });
        break;
      default: {
        const never = m;
        throw new Error(`unknown message ${JSON.stringify(never)}`);
      }
    }
  }
  return out;
}
function mapOpenAIError(err, label) {
  return mapSdkError(err, label, OpenAI);
}
class OpenAICompatibleModel {
  constructor(name, o) {
    this.name = name;
    const { provider, model } = splitModelName(name);
    if (!isOpenAICompatibleProvider(provider)) {
      throw new Error(
        `"${name}" is not an OpenAI-compatible provider (openai, openrouter, ollama, vllm, llamacpp, local)`
      );
    }
    this.provider = provider;
    this.wireModel = model;
    this.client = new OpenAI({
      apiKey: o.endpoint.apiKey,
      baseURL: o.endpoint.baseURL,
      maxRetries: 0,
      timeout: o.timeoutMs ?? 12e4,
      organization: null,
      project: null,
      webhookSecret: null
    });
  }
  name;
  provider;
  /** the model id sent to the server (the part after `provider:`) */
  wireModel;
  client;
  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req) {
    const body = {
      model: this.wireModel,
      messages: toOpenAIMessages(req.system, req.messages)
    };
    if (req.tools.length > 0) {
      body.tools = req.tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters }
      }));
    }
    if (this.provider === "openai") body.max_completion_tokens = req.settings.maxOutputTokens;
    else body.max_tokens = req.settings.maxOutputTokens;
    if (req.settings.temperature !== void 0) body.temperature = req.settings.temperature;
    if (req.settings.effort !== void 0) body.reasoning_effort = req.settings.effort;
    return body;
  }
  async generate(req, _ctx) {
    let completion;
    try {
      completion = await this.client.chat.completions.create(this.buildBody(req));
    } catch (err) {
      throw mapOpenAIError(err, this.name);
    }
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new ModelError("empty", `${this.name}: the reply has no choices`);
    const msg = choice.message;
    const toolCalls = [];
    (msg.tool_calls ?? []).forEach((c, i) => {
      if (c.type === "function" || c.function !== void 0) {
        const fn = c.function;
        toolCalls.push({ id: c.id || `call_${i}`, name: fn.name, arguments: fn.arguments ?? "" });
      }
    });
    const u = completion.usage;
    const response = {
      content: msg.content ?? null,
      tool_calls: toolCalls,
      usage: {
        input_tokens: u?.prompt_tokens ?? 0,
        cached_input_tokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
        output_tokens: u?.completion_tokens ?? 0
      }
    };
    const reported = u?.cost;
    if (typeof reported === "number") response.provider_cost_usd = reported;
    if (choice.finish_reason) response.finish_reason = choice.finish_reason;
    return response;
  }
}
export {
  OpenAICompatibleModel,
  mapOpenAIError,
  resolveOpenAICompatibleEndpoint,
  toOpenAIMessages
};
//# sourceMappingURL=openai-provider.js.map
