/** Helpers shared by the providers to turn HTTP failures into `ModelError`s. */
import { ModelError } from "./model.js";

/**
 * Retry-After hint in ms from response headers: `retry-after-ms` (ms), else `retry-after` in
 * seconds. The HTTP-date form of `retry-after` is ignored (it would need the wall clock): the
 * exponential backoff applies instead.
 */
export function retryAfterMs(get: (name: string) => string | null | undefined): number | undefined {
  const ms = get("retry-after-ms");
  if (ms != null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const s = get("retry-after");
  if (s != null && /^\d+(\.\d+)?$/.test(s.trim())) return Math.ceil(Number(s) * 1000);
  return undefined;
}

/**
 * The context-window messages of real servers (all answer 400, some 413):
 * OpenAI / OpenRouter / vLLM "This model's maximum context length is N tokens…" (code
 * `context_length_exceeded`), llama.cpp "the request exceeds the available context size…"
 * (`exceed_context_size_error`), Anthropic "prompt is too long: N tokens > M maximum", Ollama
 * "prompt too long; exceeded max context length…", and "input length … exceeds … context window".
 */
const CONTEXT_LENGTH =
  /maximum context length|context_length_exceeded|exceeds? the available context size|exceed_context_size|prompt is too long|prompt too long|context window|too many (input )?tokens|reduce the length of the (messages|prompt)/i;

/** A 400 that names an unknown model (OpenRouter "… is not a valid model ID", "model … not found", "does not exist"). */
const UNKNOWN_MODEL =
  /not a valid model|model[^.]{0,120}(not found|does not exist|is not available)|no such model|unknown model|invalid model/i;

export const isContextLengthMessage = (m: string) => CONTEXT_LENGTH.test(m);

/** Map an HTTP status to a ModelError (the SDK's own error classes are mapped through this too). */
export function errorFromStatus(status: number, message: string, retryAfter?: number): ModelError {
  if (status === 429) return new ModelError("rate_limit", message, retryAfter, status);
  if (status === 401 || status === 403) return new ModelError("auth", message, undefined, status);
  // 408 Request Timeout and 409 Conflict are transient; Anthropic's 529 "overloaded" is >= 500.
  if (status === 408) return new ModelError("timeout", message, retryAfter, status);
  if (status === 409 || status >= 500) return new ModelError("server", message, retryAfter, status);
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(message))
    return new ModelError("context_length", message, undefined, status);
  if (status === 404 || UNKNOWN_MODEL.test(message)) return new ModelError("not_found", message, undefined, status);
  return new ModelError("bad_request", message, undefined, status);
}

type ErrorClass<T = Error> = abstract new (...args: never[]) => T;

/** The error classes both provider SDKs (generated from the same toolkit) throw. */
export interface SdkErrorClasses {
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: ErrorClass<
    Error & { status: number | undefined; headers: { get(name: string): string | null } | undefined }
  >;
}

/** Map anything a provider SDK throws to a ModelError (non-SDK errors are returned unchanged). */
export function mapSdkError(err: unknown, label: string, sdk: SdkErrorClasses): unknown {
  if (err instanceof ModelError) return err;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ModelError("timeout", `${label}: request timed out`);
  if (err instanceof sdk.APIUserAbortError) return new ModelError("timeout", `${label}: request aborted`);
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return new ModelError("network", `${label}: connection error${cause}`);
  }
  if (err instanceof sdk.APIError) {
    const { status, headers } = err;
    if (status === undefined) return new ModelError("network", `${label}: ${err.message}`);
    const hint = headers ? retryAfterMs((n) => headers.get(n)) : undefined;
    return errorFromStatus(status, `${label}: HTTP ${status}: ${err.message}`, hint);
  }
  return err;
}
