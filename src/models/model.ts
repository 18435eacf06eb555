/**
 * The thin provider interface the ReAct agent calls (native tool calling, never "reply with JSON").
 * Providers translate to and from their wire formats; the agent loop, billing and cassettes work on
 * these shapes only.
 */

export interface ToolCallRequest {
  /** provider-assigned id, echoed back in the tool message */
  id: string;
  name: string;
  /** the raw JSON text the model produced (may be malformed: the agent loop parses and validates it) */
  arguments: string;
}

export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCallRequest[] }
  | { role: "tool"; tool_call_id: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments */
  parameters: Record<string, unknown>;
}

export type Effort = "none" | "low" | "medium" | "high" | "max";

export interface ModelSettings {
  maxOutputTokens: number;
  temperature?: number;
  effort?: Effort;
}

export interface GenerateRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  settings: ModelSettings;
}

export interface Usage {
  input_tokens: number;
  /** input tokens served from the provider's prompt cache (a subset of input_tokens) */
  cached_input_tokens: number;
  output_tokens: number;
}

export interface GenerateResponse {
  content: string | null;
  tool_calls: ToolCallRequest[];
  usage: Usage;
  /** provider-reported cost, logged, never booked */
  provider_cost_usd?: number;
  finish_reason?: string;
}

/** Who is calling, for cassettes (keyed by actor and call index) and logs. */
export interface CallContext {
  actor: string;
  callIndex: number;
}

export interface Model {
  /** `provider:model` */
  readonly name: string;
  generate(req: GenerateRequest, ctx: CallContext): Promise<GenerateResponse>;
}

export type ModelErrorKind = "rate_limit" | "server" | "timeout" | "empty" | "auth" | "bad_request" | "network";

/** A failed provider call. `retryable` ones (429, 5xx, timeouts, empty replies, network) are retried with backoff. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ModelError";
  }
  get retryable(): boolean {
    return this.kind !== "auth" && this.kind !== "bad_request";
  }
}
