import OpenAI from "openai";
import { errorFromStatus, mapSdkError } from "./http-error.js";
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
  const base = env[rule.baseEnv]?.trim() || (provider === "ollama" && env.OLLAMA_HOST?.trim() ? ollamaHostBase(env.OLLAMA_HOST.trim()) : void 0) || rule.defaultBase;
  if (!base) {
    throw new Error(`${provider}: models need ${rule.baseEnv} set to the server's base URL (e.g. http://host:port/v1)`);
  }
  const key = rule.keyEnv ? env[rule.keyEnv]?.trim() : void 0;
  if (rule.keyRequired && !key) {
    throw new Error(`${provider}: models need an API key: set the environment variable ${rule.keyEnv}`);
  }
  return { baseURL: base, apiKey: key || "unused" };
}
function ollamaHostBase(host) {
  const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `http://${host}`;
  let u;
  try {
    u = new URL(withScheme);
  } catch {
    throw new Error(`ollama: OLLAMA_HOST=${JSON.stringify(host)} is not a host[:port] or URL`);
  }
  if (u.hostname === "0.0.0.0" || u.hostname === "[::]") u.hostname = "127.0.0.1";
  if (u.port === "") u.port = u.protocol === "https:" ? "443" : "11434";
  const path = u.pathname.replace(/\/+$/, "");
  return `${u.protocol}//${u.host}${path.endsWith("/v1") ? path : `${path}/v1`}`;
}
const EPHEMERAL = { type: "ephemeral" };
function withCacheBreakpoints(msgs) {
  const out = msgs.map((m) => ({ ...m }));
  const mark = (i) => {
    const m = out[i];
    if (typeof m.content === "string" && m.content !== "") {
      m.content = [{ type: "text", text: m.content, cache_control: EPHEMERAL }];
    } else if (Array.isArray(m.content) && m.content.length > 0) {
      const parts = [...m.content];
      parts[parts.length - 1] = { ...parts[parts.length - 1], cache_control: EPHEMERAL };
      m.content = parts;
    }
  };
  if (out[0]?.role === "system") mark(0);
  const last = out.length - 1;
  if (last > 0) mark(last);
  for (let i = last - 1; i > 0; i--) {
    if (out[i].role === "user") {
      mark(i);
      break;
    }
  }
  return out;
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
    this.endpoint = o.endpoint.baseURL;
    this.label = `${name} at ${o.endpoint.baseURL}`;
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
  endpoint;
  label;
  client;
  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req) {
    const messages = toOpenAIMessages(req.system, req.messages);
    const body = {
      model: this.wireModel,
      messages: this.provider === "openrouter" && this.wireModel.startsWith("anthropic/") ? withCacheBreakpoints(messages) : messages
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
    if (req.settings.seed !== void 0) body.seed = req.settings.seed;
    return body;
  }
  /**
   * GET /models: a refused key (401/403) or an unreachable server fails here; vLLM, Ollama and
   * OpenRouter list every model they serve, so an unlisted one is `not_found` (llama.cpp serves the
   * file it loaded whatever the name, and `openai:`/`local:` lists may be partial: not checked).
   * OpenRouter lists models without a key, so its key is checked with GET /key.
   */
  async preflight() {
    let ids;
    try {
      const page = await this.client.models.list();
      ids = (page.data ?? []).map((m) => String(m.id ?? ""));
      if (this.provider === "openrouter") await this.client.get("/key");
    } catch (err) {
      const e = mapOpenAIError(err, this.label);
      if (e instanceof ModelError && e.kind === "not_found" && (this.provider === "local" || this.provider === "llamacpp"))
        return;
      throw e;
    }
    const listsAll = this.provider === "vllm" || this.provider === "ollama" || this.provider === "openrouter";
    const want = this.wireModel;
    const known = ids.some(
      (id) => id === want || this.provider === "ollama" && (id === `${want}:latest` || `${id}:latest` === want)
    );
    if (listsAll && ids.length > 0 && !known)
      throw new ModelError(
        "not_found",
        `${this.label}: model "${want}" is not served here (GET /models lists ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", \u2026" : ""})`,
        void 0,
        404
      );
  }
  async generate(req, _ctx) {
    let completion;
    try {
      completion = await this.client.chat.completions.create(this.buildBody(req));
    } catch (err) {
      throw mapOpenAIError(err, this.label);
    }
    const inBody = completion.error;
    if (inBody !== void 0 && inBody !== null && !completion.choices?.length) throw this.errorInBody(inBody);
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new ModelError("empty", `${this.label}: the reply has no choices`);
    const msg = choice.message;
    const toolCalls = [];
    (msg.tool_calls ?? []).forEach((c, i) => {
      if (c.type === "function" || c.function !== void 0) {
        const fn = c.function;
        const raw = fn.arguments;
        const args = typeof raw === "string" ? raw : raw === void 0 || raw === null ? "" : JSON.stringify(raw);
        toolCalls.push({ id: c.id || `call_${i}`, name: fn.name, arguments: args });
      }
    });
    const u = completion.usage;
    const response = {
      content: typeof msg.content === "string" && (msg.content !== "" || toolCalls.length === 0) ? msg.content : null,
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
  errorInBody(e) {
    const o = typeof e === "object" && e !== null ? e : { message: String(e) };
    const upstream = o.metadata?.provider_name !== void 0 || o.metadata?.raw !== void 0 ? ` (upstream ${String(o.metadata?.provider_name ?? "provider")}: ${typeof o.metadata?.raw === "string" ? o.metadata.raw : JSON.stringify(o.metadata?.raw ?? null)})` : "";
    const text = `${this.label}: error in a 200 reply: ${String(o.message ?? "no message")}${upstream}`;
    const code = typeof o.code === "number" ? o.code : Number(o.code);
    return Number.isInteger(code) && code >= 400 ? errorFromStatus(code, text) : new ModelError("server", text);
  }
}
export {
  OpenAICompatibleModel,
  mapOpenAIError,
  ollamaHostBase,
  resolveOpenAICompatibleEndpoint,
  toOpenAIMessages,
  withCacheBreakpoints
};
//# sourceMappingURL=openai-provider.js.map
