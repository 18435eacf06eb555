import type { LedgerWriter } from "../ledger/ledger-writer.js";
import {
  type CallContext,
  type GenerateRequest,
  type GenerateResponse,
  ModelError,
  ProviderFailedError,
  type Usage,
} from "../models/model.js";

/** One model call with retries, as the runner gives the agent (attempts reported for ledgering). */
export type MeteredGenerate = (
  req: GenerateRequest,
  ctx: CallContext,
  onAttempt: (a: { attempt: number; ok: boolean; error?: unknown; response?: GenerateResponse }) => void,
) => Promise<GenerateResponse>;

/** A harness-side model caller (the reflection curator, the optimizer's proposer): its own model and settings. */
export interface MeteredCaller {
  ledger: LedgerWriter;
  generate: MeteredGenerate;
  /** price-table key ledgered in llm_call.model */
  modelName: string;
  cost: (u: Usage) => number;
  /** the model's base URL, named when the provider fails for good */
  endpoint?: string;
}

/**
 * One ledgered model call of a harness actor (every attempt an `llm_call` line, so the wallet books
 * it against the run's budget like an agent's call); null when it failed after its retries (noted
 * `<actor>_failed`). A provider that can never answer stops the run before it scores, as an agent's
 * call does.
 */
export async function meteredCall(
  o: MeteredCaller,
  actor: string,
  callIndex: number,
  now: number,
  req: GenerateRequest,
): Promise<GenerateResponse | null> {
  const ctx: CallContext = { actor, callIndex };
  const base = { type: "llm_call" as const, t: now, actor, model: o.modelName, call_index: callIndex };
  try {
    return await o.generate(req, ctx, (a) => {
      if (a.ok && a.response) {
        const u = a.response.usage;
        o.ledger.append({
          ...base,
          attempt: a.attempt,
          status: "ok",
          input_tokens: u.input_tokens,
          cached_input_tokens: u.cached_input_tokens,
          output_tokens: u.output_tokens,
          cost_usd: o.cost(u),
        });
      } else
        o.ledger.append({
          ...base,
          attempt: a.attempt,
          status: "error",
          error: a.error instanceof Error ? a.error.message : String(a.error),
          input_tokens: 0,
          cached_input_tokens: 0,
          output_tokens: 0,
          cost_usd: 0,
        });
    });
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    if (err.endpointBroken) {
      const failure = new ProviderFailedError(o.modelName, o.endpoint, err, `${actor} call ${callIndex}`);
      o.ledger.append({ type: "note", t: now, actor, kind: "provider_failed", message: failure.message });
      throw failure;
    }
    o.ledger.append({
      type: "note",
      t: now,
      actor,
      kind: `${actor}_failed`,
      message: `${actor} call ${callIndex} failed after its retries: ${err.kind}: ${err.message}`,
    });
    return null;
  }
}
