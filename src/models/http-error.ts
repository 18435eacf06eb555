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

/** Map an HTTP status to a ModelError (the SDK's own error classes are mapped through this too). */
export function errorFromStatus(status: number, message: string, retryAfter?: number): ModelError {
  if (status === 429) return new ModelError("rate_limit", message, retryAfter);
  if (status === 401 || status === 403) return new ModelError("auth", message);
  // 408 Request Timeout and 409 Conflict are transient; Anthropic's 529 "overloaded" is >= 500.
  if (status === 408) return new ModelError("timeout", message, retryAfter);
  if (status === 409 || status >= 500) return new ModelError("server", message, retryAfter);
  return new ModelError("bad_request", message);
}
