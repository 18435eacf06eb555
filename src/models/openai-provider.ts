/**
 * OpenAI-compatible provider (openai 6.x SDK, chat.completions, non-streaming, native tools).
 * One class serves OpenAI, OpenRouter, Ollama, vLLM, llama.cpp's server and any other
 * OpenAI-compatible endpoint; the provider prefix picks the base URL and key variables:
 *
 * | prefix       | base URL (env, default)                                 | key (env)                      |
 * |--------------|---------------------------------------------------------|--------------------------------|
 * | `openai:`    | OPENAI_BASE_URL, default https://api.openai.com/v1       | OPENAI_API_KEY (required)      |
 * | `openrouter:`| OPENROUTER_BASE_URL, default https://openrouter.ai/api/v1| OPENROUTER_API_KEY (required)  |
 * | `ollama:`    | OLLAMA_BASE_URL, else Ollama's own OLLAMA_HOST (+ /v1), default http://127.0.0.1:11434/v1 | none |
 * | `vllm:`      | VLLM_BASE_URL, default http://127.0.0.1:8000/v1         | VLLM_API_KEY (optional)        |
 * | `llamacpp:`  | LLAMACPP_BASE_URL, default http://127.0.0.1:8080/v1     | LLAMACPP_API_KEY (optional)    |
 * | `local:`     | LOCAL_BASE_URL (required)                               | LOCAL_API_KEY (optional)       |
 *
 * Retries are not done here (the SDK runs with `maxRetries: 0`): see retry.ts.
 *
 * Replies as real servers send them: tool-call `arguments` as a JSON string or an object (serialised
 * here); `content: null` (or "") beside tool calls; `reasoning_content` / `reasoning` fields (not
 * part of the reply's content); usage without a cached-token field (0 cached); OpenRouter's
 * `usage.cost` (kept as `provider_cost_usd`) and its error-in-200 bodies (`{error: {code,
 * message, metadata}}` with no choices: mapped by `error.code` like an HTTP status, with the
 * upstream provider's message). `openrouter:anthropic/*` requests carry Anthropic cache breakpoints
 * (`cache_control` on content parts: the system prompt, the last message and the previous user turn).
 */
import type OpenAI from "openai";
import { errorFromStatus, mapSdkError, type SdkErrorClasses } from "./http-error.js";
import {
  type CallContext,
  type ChatMessage,
  type GenerateRequest,
  type GenerateResponse,
  type Model,
  ModelError,
  type ToolCallRequest,
} from "./model.js";
import { isOpenAICompatibleProvider, type OpenAICompatibleProvider, splitModelName } from "./provider-name.js";

export interface OpenAICompatibleEndpoint {
  baseURL: string;
  /** the SDK needs a non-empty key; keyless local servers get the placeholder "unused" */
  apiKey: string;
}

interface EndpointRule {
  baseEnv: string;
  defaultBase?: string;
  keyEnv?: string;
  keyRequired: boolean;
}

const ENDPOINTS: Record<OpenAICompatibleProvider, EndpointRule> = {
  openai: {
    baseEnv: "OPENAI_BASE_URL",
    defaultBase: "https://api.openai.com/v1",
    keyEnv: "OPENAI_API_KEY",
    keyRequired: true,
  },
  openrouter: {
    baseEnv: "OPENROUTER_BASE_URL",
    defaultBase: "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    keyRequired: true,
  },
  ollama: { baseEnv: "OLLAMA_BASE_URL", defaultBase: "http://127.0.0.1:11434/v1", keyRequired: false },
  vllm: {
    baseEnv: "VLLM_BASE_URL",
    defaultBase: "http://127.0.0.1:8000/v1",
    keyEnv: "VLLM_API_KEY",
    keyRequired: false,
  },
  llamacpp: {
    baseEnv: "LLAMACPP_BASE_URL",
    defaultBase: "http://127.0.0.1:8080/v1",
    keyEnv: "LLAMACPP_API_KEY",
    keyRequired: false,
  },
  local: { baseEnv: "LOCAL_BASE_URL", keyEnv: "LOCAL_API_KEY", keyRequired: false },
};

/** Base URL and key for a provider from the environment; throws naming the missing variable. */
export function resolveOpenAICompatibleEndpoint(
  provider: OpenAICompatibleProvider,
  env: NodeJS.ProcessEnv,
): OpenAICompatibleEndpoint {
  const rule = ENDPOINTS[provider];
  const base =
    env[rule.baseEnv]?.trim() ||
    (provider === "ollama" && env.OLLAMA_HOST?.trim() ? ollamaHostBase(env.OLLAMA_HOST.trim()) : undefined) ||
    rule.defaultBase;
  if (!base) {
    throw new Error(`${provider}: models need ${rule.baseEnv} set to the server's base URL (e.g. http://host:port/v1)`);
  }
  const key = rule.keyEnv ? env[rule.keyEnv]?.trim() : undefined;
  if (rule.keyRequired && !key) {
    throw new Error(`${provider}: models need an API key: set the environment variable ${rule.keyEnv}`);
  }
  return { baseURL: base, apiKey: key || "unused" };
}

/**
 * Ollama's own `OLLAMA_HOST` (`host`, `host:port`, `scheme://host:port`; the server's bind address
 * 0.0.0.0 means this machine) as the OpenAI-compatible base URL `<scheme>://<host>:<port>/v1`.
 */
export function ollamaHostBase(host: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `http://${host}`;
  let u: URL;
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

export interface OpenAICompatibleOptions {
  endpoint: OpenAICompatibleEndpoint;
  /** per-call timeout, ms (default 120,000) */
  timeoutMs?: number;
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type TextPart = { type: "text"; text: string; cache_control?: { type: "ephemeral" } };
const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Anthropic cache breakpoints for `openrouter:anthropic/*` (OpenRouter passes `cache_control` on
 * content parts through): the system prompt (caching tools + system), the last message and the
 * previous user turn, so the cached prefix moves with the conversation (at most 3 of Anthropic's 4).
 */
export function withCacheBreakpoints(msgs: WireMessage[]): WireMessage[] {
  const out = msgs.map((m) => ({ ...m })) as WireMessage[];
  const mark = (i: number) => {
    const m = out[i] as { role: string; content: unknown };
    if (typeof m.content === "string" && m.content !== "") {
      m.content = [{ type: "text", text: m.content, cache_control: EPHEMERAL } satisfies TextPart];
    } else if (Array.isArray(m.content) && m.content.length > 0) {
      const parts = [...(m.content as TextPart[])];
      parts[parts.length - 1] = { ...parts[parts.length - 1]!, cache_control: EPHEMERAL };
      m.content = parts;
    }
  };
  if (out[0]?.role === "system") mark(0);
  const last = out.length - 1;
  if (last > 0) mark(last);
  for (let i = last - 1; i > 0; i--) {
    if (out[i]!.role === "user") {
      mark(i);
      break;
    }
  }
  return out;
}

export function toOpenAIMessages(system: string, messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
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
              type: "function" as const,
              function: { name: c.name, arguments: c.arguments },
            })),
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
        const never: never = m;
        throw new Error(`unknown message ${JSON.stringify(never)}`);
      }
    }
  }
  return out;
}

/** The SDK is loaded on first use, so commands that never call a model (scripted runs, grid
 * children of scripted cells) do not pay for its ~150 modules at start-up. */
let sdk: Promise<typeof import("openai")> | undefined;
const loadSdk = () => {
  sdk ??= import("openai");
  return sdk;
};

/** Map anything the SDK throws to a ModelError (non-SDK errors are rethrown unchanged). */
async function mapOpenAIError(err: unknown, label: string): Promise<unknown> {
  return mapSdkError(err, label, (await loadSdk()).default as unknown as SdkErrorClasses);
}

export class OpenAICompatibleModel implements Model {
  readonly provider: OpenAICompatibleProvider;
  /** the model id sent to the server (the part after `provider:`) */
  readonly wireModel: string;
  readonly endpoint: string;
  private readonly label: string;
  private readonly client: () => Promise<OpenAI>;

  constructor(
    readonly name: string,
    o: OpenAICompatibleOptions,
  ) {
    const { provider, model } = splitModelName(name);
    if (!isOpenAICompatibleProvider(provider)) {
      throw new Error(
        `"${name}" is not an OpenAI-compatible provider (openai, openrouter, ollama, vllm, llamacpp, local)`,
      );
    }
    this.provider = provider;
    this.wireModel = model;
    this.endpoint = o.endpoint.baseURL;
    this.label = `${name} at ${o.endpoint.baseURL}`;
    let client: Promise<OpenAI> | undefined;
    this.client = () => {
      client ??= loadSdk().then(
        ({ default: Sdk }) =>
          new Sdk({
            apiKey: o.endpoint.apiKey,
            baseURL: o.endpoint.baseURL,
            maxRetries: 0,
            timeout: o.timeoutMs ?? 120_000,
            organization: null,
            project: null,
            webhookSecret: null,
          }),
      );
      return client;
    };
  }

  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req: GenerateRequest): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
    const messages = toOpenAIMessages(req.system, req.messages);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: this.wireModel,
      messages:
        this.provider === "openrouter" && this.wireModel.startsWith("anthropic/")
          ? withCacheBreakpoints(messages)
          : messages,
    };
    if (req.tools.length > 0) {
      body.tools = req.tools.map((t) => ({
        type: "function" as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    // OpenAI's reasoning models reject max_tokens; other servers universally accept it.
    if (this.provider === "openai") body.max_completion_tokens = req.settings.maxOutputTokens;
    else body.max_tokens = req.settings.maxOutputTokens;
    if (req.settings.temperature !== undefined) body.temperature = req.settings.temperature;
    // Sent verbatim (none|low|medium|high|max): OpenAI, OpenRouter, vLLM and Ollama accept
    // `reasoning_effort`; a model or server that does not support a value answers 400 (bad_request).
    if (req.settings.effort !== undefined) body.reasoning_effort = req.settings.effort;
    // OpenAI-compatible servers accept `seed` (OpenAI best effort, vLLM, llama.cpp, Ollama, OpenRouter pass it on)
    if (req.settings.seed !== undefined) body.seed = req.settings.seed;
    return body;
  }

  /**
   * GET /models: a refused key (401/403) or an unreachable server fails here; vLLM, Ollama and
   * OpenRouter list every model they serve, so an unlisted one is `not_found` (llama.cpp serves the
   * file it loaded whatever the name, and `openai:`/`local:` lists may be partial: not checked).
   * OpenRouter lists models without a key, so its key is checked with GET /key.
   */
  async preflight(): Promise<void> {
    let ids: string[];
    try {
      const client = await this.client();
      const page = await client.models.list();
      ids = (page.data ?? []).map((m) => String((m as { id?: unknown }).id ?? ""));
      if (this.provider === "openrouter") await client.get("/key");
    } catch (err) {
      const e = await mapOpenAIError(err, this.label);
      // a server without GET /models (some local ones) cannot be checked this way
      if (
        e instanceof ModelError &&
        e.kind === "not_found" &&
        (this.provider === "local" || this.provider === "llamacpp")
      )
        return;
      throw e;
    }
    const listsAll = this.provider === "vllm" || this.provider === "ollama" || this.provider === "openrouter";
    const want = this.wireModel;
    const known = ids.some(
      (id) => id === want || (this.provider === "ollama" && (id === `${want}:latest` || `${id}:latest` === want)),
    );
    if (listsAll && ids.length > 0 && !known)
      throw new ModelError(
        "not_found",
        `${this.label}: model "${want}" is not served here (GET /models lists ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", …" : ""})`,
        undefined,
        404,
      );
  }

  async generate(req: GenerateRequest, _ctx: CallContext): Promise<GenerateResponse> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await (await this.client()).chat.completions.create(this.buildBody(req));
    } catch (err) {
      throw await mapOpenAIError(err, this.label);
    }
    // OpenRouter (and some proxies) report upstream failures in a 200 body: {error: {code, message, metadata}}
    const inBody = (completion as { error?: unknown }).error;
    if (inBody !== undefined && inBody !== null && !completion.choices?.length) throw this.errorInBody(inBody);
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new ModelError("empty", `${this.label}: the reply has no choices`);
    const msg = choice.message;
    const toolCalls: ToolCallRequest[] = [];
    (msg.tool_calls ?? []).forEach((c, i) => {
      if (c.type === "function" || (c as { function?: unknown }).function !== undefined) {
        const fn = (c as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function;
        const raw: unknown = fn.arguments;
        // some servers send the arguments as an object instead of JSON text
        const args = typeof raw === "string" ? raw : raw === undefined || raw === null ? "" : JSON.stringify(raw);
        toolCalls.push({ id: c.id || `call_${i}`, name: fn.name, arguments: args });
      }
    });
    const u = completion.usage;
    const response: GenerateResponse = {
      content: typeof msg.content === "string" && (msg.content !== "" || toolCalls.length === 0) ? msg.content : null,
      tool_calls: toolCalls,
      usage: {
        input_tokens: u?.prompt_tokens ?? 0,
        cached_input_tokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
        output_tokens: u?.completion_tokens ?? 0,
      },
    };
    // OpenRouter reports its own charge as usage.cost: logged, never booked.
    const reported = (u as { cost?: unknown } | undefined)?.cost;
    if (typeof reported === "number") response.provider_cost_usd = reported;
    if (choice.finish_reason) response.finish_reason = choice.finish_reason;
    return response;
  }

  private errorInBody(e: unknown): ModelError {
    const o = (typeof e === "object" && e !== null ? e : { message: String(e) }) as {
      code?: unknown;
      message?: unknown;
      metadata?: { raw?: unknown; provider_name?: unknown };
    };
    const upstream =
      o.metadata?.provider_name !== undefined || o.metadata?.raw !== undefined
        ? ` (upstream ${String(o.metadata?.provider_name ?? "provider")}: ${typeof o.metadata?.raw === "string" ? o.metadata.raw : JSON.stringify(o.metadata?.raw ?? null)})`
        : "";
    const text = `${this.label}: error in a 200 reply: ${String(o.message ?? "no message")}${upstream}`;
    const code = typeof o.code === "number" ? o.code : Number(o.code);
    return Number.isInteger(code) && code >= 400 ? errorFromStatus(code, text) : new ModelError("server", text);
  }
}
