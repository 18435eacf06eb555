/**
 * OpenAI-compatible provider (openai 6.x SDK, chat.completions, non-streaming, native tools).
 * One class serves OpenAI, OpenRouter, Ollama, vLLM, llama.cpp's server and any other
 * OpenAI-compatible endpoint; the provider prefix picks the base URL and key variables:
 *
 * | prefix       | base URL (env, default)                                 | key (env)                      |
 * |--------------|---------------------------------------------------------|--------------------------------|
 * | `openai:`    | OPENAI_BASE_URL, default https://api.openai.com/v1       | OPENAI_API_KEY (required)      |
 * | `openrouter:`| OPENROUTER_BASE_URL, default https://openrouter.ai/api/v1| OPENROUTER_API_KEY (required)  |
 * | `ollama:`    | OLLAMA_BASE_URL, default http://127.0.0.1:11434/v1      | none                           |
 * | `vllm:`      | VLLM_BASE_URL, default http://127.0.0.1:8000/v1         | VLLM_API_KEY (optional)        |
 * | `llamacpp:`  | LLAMACPP_BASE_URL, default http://127.0.0.1:8080/v1     | LLAMACPP_API_KEY (optional)    |
 * | `local:`     | LOCAL_BASE_URL (required)                               | LOCAL_API_KEY (optional)       |
 *
 * Retries are not done here (the SDK runs with `maxRetries: 0`): see retry.ts.
 */
import OpenAI from "openai";
import { mapSdkError, type SdkErrorClasses } from "./http-error.js";
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
  const base = env[rule.baseEnv]?.trim() || rule.defaultBase;
  if (!base) {
    throw new Error(`${provider}: models need ${rule.baseEnv} set to the server's base URL (e.g. http://host:port/v1)`);
  }
  const key = rule.keyEnv ? env[rule.keyEnv]?.trim() : undefined;
  if (rule.keyRequired && !key) {
    throw new Error(`${provider}: models need an API key: set the environment variable ${rule.keyEnv}`);
  }
  return { baseURL: base, apiKey: key || "unused" };
}

export interface OpenAICompatibleOptions {
  endpoint: OpenAICompatibleEndpoint;
  /** per-call timeout, ms (default 120,000) */
  timeoutMs?: number;
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

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

/** Map anything the SDK throws to a ModelError (non-SDK errors are rethrown unchanged). */
export function mapOpenAIError(err: unknown, label: string): unknown {
  return mapSdkError(err, label, OpenAI as unknown as SdkErrorClasses);
}

export class OpenAICompatibleModel implements Model {
  readonly provider: OpenAICompatibleProvider;
  /** the model id sent to the server (the part after `provider:`) */
  readonly wireModel: string;
  private readonly client: OpenAI;

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
    this.client = new OpenAI({
      apiKey: o.endpoint.apiKey,
      baseURL: o.endpoint.baseURL,
      maxRetries: 0,
      timeout: o.timeoutMs ?? 120_000,
      organization: null,
      project: null,
      webhookSecret: null,
    });
  }

  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req: GenerateRequest): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: this.wireModel,
      messages: toOpenAIMessages(req.system, req.messages),
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
    return body;
  }

  async generate(req: GenerateRequest, _ctx: CallContext): Promise<GenerateResponse> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(this.buildBody(req));
    } catch (err) {
      throw mapOpenAIError(err, this.name);
    }
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new ModelError("empty", `${this.name}: the reply has no choices`);
    const msg = choice.message;
    const toolCalls: ToolCallRequest[] = [];
    (msg.tool_calls ?? []).forEach((c, i) => {
      if (c.type === "function" || (c as { function?: unknown }).function !== undefined) {
        const fn = (c as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function;
        toolCalls.push({ id: c.id || `call_${i}`, name: fn.name, arguments: fn.arguments ?? "" });
      }
    });
    const u = completion.usage;
    const response: GenerateResponse = {
      content: msg.content ?? null,
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
}
