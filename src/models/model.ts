/**
 * The thin provider interface the ReAct agent calls (native tool calling, never "reply with JSON").
 * Providers translate to and from their wire formats; the agent loop, billing and cassettes work on
 * these shapes only.
 */

export interface ToolCallRequest {
  /** provider-assigned id, echoed back in the tool message */
  id: string;
  name: string;
  /**
   * the raw JSON text the model produced (may be malformed: the agent loop parses and validates it);
   * providers that receive an object (some servers send one) serialise it to JSON text
   */
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
  /** the run seed, sent where the provider accepts one (OpenAI-compatible `seed`) */
  seed?: number;
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
  /** the provider's own stop reason (`length` / `max_tokens` = truncated: see `isTruncated`) */
  finish_reason?: string;
}

/** A reply cut off at the output token cap (`finish_reason: length`, Anthropic `stop_reason: max_tokens`). */
export const isTruncated = (r: Pick<GenerateResponse, "finish_reason">): boolean =>
  r.finish_reason === "length" || r.finish_reason === "max_tokens";

/** Who is calling, for cassettes (keyed by actor and call index) and logs. */
export interface CallContext {
  actor: string;
  callIndex: number;
}

export interface Model {
  /** `provider:model` */
  readonly name: string;
  /** the base URL the model is reached at (part of a run's identity); undefined for cassettes */
  readonly endpoint?: string;
  generate(req: GenerateRequest, ctx: CallContext): Promise<GenerateResponse>;
  /**
   * A cheap request at launch (GET /models or the like, never a billed generation) that throws a
   * `ModelError` when the endpoint is unreachable, the key is refused or the model is unknown.
   */
  preflight?(): Promise<void>;
}

export type ModelErrorKind =
  | "rate_limit"
  | "server"
  | "timeout"
  | "empty"
  | "auth"
  | "bad_request"
  | "network"
  /** 404, or a 400 naming an unknown model */
  | "not_found"
  /** the request does not fit the model's context window (a 400 with the provider's message) */
  | "context_length";

/** Every kind, for parsing ledgered error texts. */
export const MODEL_ERROR_KINDS: readonly ModelErrorKind[] = [
  "rate_limit",
  "server",
  "timeout",
  "empty",
  "auth",
  "bad_request",
  "network",
  "not_found",
  "context_length",
];

/**
 * A failed provider call. `retryable` ones (429, 5xx, timeouts, empty replies, network) are retried
 * with backoff; `status` is the HTTP status when there was one.
 */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelError";
  }
  get retryable(): boolean {
    switch (this.kind) {
      case "rate_limit":
      case "server":
      case "timeout":
      case "empty":
      case "network":
        return true;
      case "auth":
      case "bad_request":
      case "not_found":
      case "context_length":
        return false;
      default: {
        const never: never = this.kind;
        throw new Error(`unknown model error kind ${String(never)}`);
      }
    }
  }
  /**
   * The endpoint itself is broken (bad key, unknown model, unreachable after retries): no later call
   * can succeed, so the run stops before it scores (`ProviderFailedError`).
   */
  get endpointBroken(): boolean {
    return this.kind === "auth" || this.kind === "not_found" || this.kind === "network";
  }
}

/**
 * A provider failure that stops the run before it can score: the message names the provider, base
 * URL, model and status. The run directory stays resumable.
 */
export class ProviderFailedError extends Error {
  constructor(
    readonly model: string,
    readonly endpoint: string | undefined,
    readonly error: ModelError,
    /** where it happened ("preflight" or "model call N") */
    readonly where: string,
  ) {
    super(
      `provider failure (${where}): ${model} at ${endpoint ?? "(no endpoint)"}: ${error.kind}` +
        `${error.status !== undefined ? ` (HTTP ${error.status})` : ""}: ${error.message}`,
    );
    this.name = "ProviderFailedError";
  }
  /** the run directory the failure stopped (set by the runner; `relive resume` continues it) */
  runDir?: string;
}
