/**
 * Anthropic provider (@anthropic-ai/sdk, messages.create, non-streaming, native tools).
 *
 * Env: ANTHROPIC_API_KEY (required), ANTHROPIC_BASE_URL (optional, default https://api.anthropic.com).
 *
 * Mapping:
 * - tools → `{name, description, input_schema}`; cache breakpoints (`cache_control: {type:
 *   "ephemeral"}`) that move with the conversation: the system prompt's text block (tools + system),
 *   the last block of the last message and the last block of the previous user turn (so the prefix
 *   written by the previous call is read back even when a reply added many blocks): 3 of the 4 allowed.
 * - assistant tool calls → `tool_use` blocks (`input` = the parsed arguments; arguments that are not a
 *   JSON object are sent as `{}`: only cross-provider histories can hold such calls); consecutive
 *   `tool` messages → one user message of `tool_result` blocks; consecutive same-role turns merged.
 * - usage: input_tokens = input_tokens + cache_creation_input_tokens + cache_read_input_tokens,
 *   cached_input_tokens = cache_read_input_tokens. Cache writes are booked at the input rate.
 * - temperature: sent as a body field when set (the 1.x SDK no longer types it).
 * - effort: `none` (or unset) sends nothing; low/medium/high/max → `output_config.effort`
 *   (models without effort support answer 400 = bad_request). Extended thinking is not enabled.
 */
import type Anthropic from "@anthropic-ai/sdk";
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
import { splitModelName } from "./provider-name.js";

export interface AnthropicEndpoint {
  apiKey: string;
  /** undefined = the SDK default (https://api.anthropic.com) */
  baseURL?: string;
}

/** Key and base URL from the environment; throws naming ANTHROPIC_API_KEY when it is missing. */
export function resolveAnthropicEndpoint(env: NodeJS.ProcessEnv): AnthropicEndpoint {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) throw new Error("anthropic: models need an API key: set the environment variable ANTHROPIC_API_KEY");
  const base = env.ANTHROPIC_BASE_URL?.trim();
  return base ? { apiKey, baseURL: base } : { apiKey };
}

type Block = Anthropic.Messages.ContentBlockParam;
type Turn = { role: "user" | "assistant"; content: Block[] };

function parseInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toAnthropicMessages(messages: ChatMessage[]): Anthropic.Messages.MessageParam[] {
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const m of messages) {
    switch (m.role) {
      case "user":
        push("user", [{ type: "text", text: m.content }]);
        break;
      case "assistant": {
        const blocks: Block[] = [];
        if (m.content) blocks.push({ type: "text", text: m.content });
        for (const c of m.tool_calls ?? []) {
          blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parseInput(c.arguments) });
        }
        // An assistant turn with neither text nor calls still takes its place in the alternation.
        push("assistant", blocks.length > 0 ? blocks : [{ type: "text", text: "(no reply)" }]);
        break;
      }
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: m.content }]);
        break;
      default: {
        const never: never = m;
        throw new Error(`unknown message ${JSON.stringify(never)}`);
      }
    }
  }
  // Within a user turn, tool_result blocks must come first.
  for (const t of turns) {
    if (t.role === "user") {
      const results = t.content.filter((b) => b.type === "tool_result");
      const rest = t.content.filter((b) => b.type !== "tool_result");
      t.content = [...results, ...rest];
    }
  }
  return turns;
}

const EPHEMERAL = { type: "ephemeral" } as const;

/** Marks the last block of the last turn and of the previous user turn as cache breakpoints (a copy). */
export function withConversationBreakpoints(
  turns: Anthropic.Messages.MessageParam[],
): Anthropic.Messages.MessageParam[] {
  const out: Turn[] = (turns as Turn[]).map((t) => ({ role: t.role, content: [...t.content] }));
  const mark = (i: number) => {
    const blocks = out[i]?.content;
    if (blocks === undefined || blocks.length === 0) return;
    const b = blocks[blocks.length - 1]!;
    if (b.type === "text" || b.type === "tool_result" || b.type === "tool_use")
      blocks[blocks.length - 1] = { ...b, cache_control: EPHEMERAL };
  };
  const last = out.length - 1;
  if (last < 0) return out;
  mark(last);
  for (let i = last - 1; i >= 0; i--) {
    if (out[i]!.role === "user") {
      mark(i);
      break;
    }
  }
  return out;
}

/** The SDK is loaded on first use, so commands that never call a model (scripted runs, grid
 * children of scripted cells) do not pay for its ~270 modules at start-up. */
let sdk: Promise<typeof import("@anthropic-ai/sdk")> | undefined;
const loadSdk = () => {
  sdk ??= import("@anthropic-ai/sdk");
  return sdk;
};

async function mapAnthropicError(err: unknown, label: string): Promise<unknown> {
  return mapSdkError(err, label, (await loadSdk()).default as unknown as SdkErrorClasses);
}

export interface AnthropicOptions {
  endpoint: AnthropicEndpoint;
  /** per-call timeout, ms (default 120,000) */
  timeoutMs?: number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

export class AnthropicModel implements Model {
  readonly wireModel: string;
  readonly endpoint: string;
  private readonly label: string;
  private readonly client: () => Promise<Anthropic>;

  constructor(
    readonly name: string,
    o: AnthropicOptions,
  ) {
    const { provider, model } = splitModelName(name);
    if (provider !== "anthropic") throw new Error(`"${name}" is not an anthropic: model`);
    this.wireModel = model;
    this.endpoint = o.endpoint.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL;
    this.label = `${name} at ${this.endpoint}`;
    let client: Promise<Anthropic> | undefined;
    this.client = () => {
      client ??= loadSdk().then(
        ({ default: Sdk }) =>
          new Sdk({
            apiKey: o.endpoint.apiKey,
            ...(o.endpoint.baseURL ? { baseURL: o.endpoint.baseURL } : {}),
            maxRetries: 0,
            timeout: o.timeoutMs ?? 120_000,
          }),
      );
      return client;
    };
  }

  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req: GenerateRequest): Anthropic.Messages.MessageCreateParamsNonStreaming {
    const body: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: this.wireModel,
      max_tokens: req.settings.maxOutputTokens,
      messages: withConversationBreakpoints(toAnthropicMessages(req.messages)),
    };
    if (req.system !== "") {
      body.system = [{ type: "text", text: req.system, cache_control: { type: "ephemeral" } }];
    }
    if (req.tools.length > 0) {
      body.tools = req.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema,
      }));
    }
    // @anthropic-ai/sdk 1.x no longer types `temperature`; it is sent as a body field when set
    // (models that do not take it answer 400 = bad_request).
    if (req.settings.temperature !== undefined) {
      (body as unknown as Record<string, unknown>).temperature = req.settings.temperature;
    }
    const effort = req.settings.effort;
    if (effort !== undefined && effort !== "none") body.output_config = { effort };
    return body;
  }

  /** GET /v1/models (one entry): a refused key or an unreachable endpoint fails here, before the episode. */
  async preflight(): Promise<void> {
    try {
      await (await this.client()).models.list({ limit: 1 });
    } catch (err) {
      throw await mapAnthropicError(err, this.label);
    }
  }

  async generate(req: GenerateRequest, _ctx: CallContext): Promise<GenerateResponse> {
    let msg: Anthropic.Messages.Message;
    try {
      msg = await (await this.client()).messages.create(this.buildBody(req));
    } catch (err) {
      throw await mapAnthropicError(err, this.label);
    }
    const blocks = Array.isArray(msg.content) ? msg.content : [];
    if (blocks.length === 0 && msg.stop_reason !== "end_turn" && msg.stop_reason !== "max_tokens") {
      throw new ModelError("empty", `${this.label}: the reply has no content (stop_reason ${String(msg.stop_reason)})`);
    }
    const texts: string[] = [];
    const toolCalls: ToolCallRequest[] = [];
    for (const b of blocks) {
      if (b.type === "text") texts.push(b.text);
      else if (b.type === "tool_use") toolCalls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
    }
    const u = msg.usage;
    const read = u.cache_read_input_tokens ?? 0;
    const written = u.cache_creation_input_tokens ?? 0;
    const response: GenerateResponse = {
      content: texts.length > 0 ? texts.join("") : null,
      tool_calls: toolCalls,
      usage: {
        input_tokens: u.input_tokens + written + read,
        cached_input_tokens: read,
        output_tokens: u.output_tokens,
      },
    };
    if (msg.stop_reason) response.finish_reason = msg.stop_reason;
    return response;
  }
}
