/**
 * Retries with exponential backoff. Only retryable `ModelError`s (rate_limit, server, timeout,
 * empty, network) are retried; auth/bad_request and non-ModelErrors (bugs, cassette mismatches)
 * are thrown at once. Delay before attempt n+1 (n ≥ 1) = min(maxDelayMs, baseDelayMs·2^(n−1)),
 * jitter-free so runs are reproducible; a provider's Retry-After hint replaces it (also capped at
 * maxDelayMs). The caller ledgers every attempt from `onAttempt` (failed attempts cost 0).
 */
import { type CallContext, type GenerateRequest, type GenerateResponse, type Model, ModelError } from "./model.js";

export interface AttemptInfo {
  /** 1-based */
  attempt: number;
  ok: boolean;
  error?: ModelError;
  response?: GenerateResponse;
}

export interface RetryOptions {
  /** total attempts including the first (default 5) */
  maxAttempts?: number;
  /** default 1000 */
  baseDelayMs?: number;
  /** default 60,000 */
  maxDelayMs?: number;
  /** default: a wall-clock setTimeout (retry pacing is real time, never simulated time) */
  sleep?: (ms: number) => Promise<void>;
  onAttempt: (a: AttemptInfo) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The delay before the attempt after failed attempt `attempt` (1-based). */
export function retryDelayMs(
  attempt: number,
  error: ModelError,
  o: { baseDelayMs?: number; maxDelayMs?: number } = {},
): number {
  const base = o.baseDelayMs ?? 1000;
  const max = o.maxDelayMs ?? 60_000;
  const backoff = base * 2 ** (attempt - 1);
  return Math.min(max, error.retryAfterMs ?? backoff);
}

export async function generateWithRetries(
  model: Model,
  req: GenerateRequest,
  ctx: CallContext,
  o: RetryOptions,
): Promise<GenerateResponse> {
  const maxAttempts = o.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be ≥ 1, got ${maxAttempts}`);
  const sleep = o.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    let response: GenerateResponse;
    try {
      response = await model.generate(req, ctx);
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      o.onAttempt({ attempt, ok: false, error: err });
      if (!err.retryable || attempt >= maxAttempts) throw err;
      await sleep(retryDelayMs(attempt, err, o));
      continue;
    }
    o.onAttempt({ attempt, ok: true, response });
    return response;
  }
}
