import { z } from "zod";
import {
  OPTIMIZER_ACTOR,
  PROPOSER_ACTOR,
  SPAN_NOTE,
  type SpanRecord,
  SpanRecordSchema,
} from "../learning/optimizer.js";
import { PROMOTION_RULES } from "../learning/promotion.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { ResolvedRun } from "./resolve-run.js";

/** `optimizer` in results.json: the per-span scores and decisions of a harness-optimizer run (from its ledger notes). */
export const OptimizerResultsSchema = z.object({
  span_days: z.number().int().positive(),
  control: z.boolean(),
  promotion: z.enum(PROMOTION_RULES),
  /** the proposer's `provider:model` (null: the control arm) */
  proposer: z.string().nullable(),
  spans: z.array(SpanRecordSchema),
  kept: z.number().int(),
  reverted: z.number().int(),
  /** proposer calls and their booked cost (counted in resources like every llm_call) */
  proposer_calls: z.number().int(),
  proposer_usd: z.number(),
  /** proposals refused (bad arguments, a surface the run lacks, a value the task's params refuse) */
  proposals_rejected: z.number().int(),
});
export type OptimizerResults = z.infer<typeof OptimizerResultsSchema>;

/**
 * The optimizer section of a run's results, rebuilt from its ledger (the `optimizer_span` notes, the
 * proposer's `llm_call` lines, the `optimizer_rejected` notes); null for runs without the optimizer.
 * A span note that does not parse is an error naming its line.
 */
/** the ledger events optimizer results are made of (the results tally keeps only these) */
export const isOptimizerEvent = (e: LedgerEvent): boolean =>
  (e.type === "llm_call" && e.actor === PROPOSER_ACTOR) || (e.type === "note" && e.actor === OPTIMIZER_ACTOR);

export function optimizerResultsOf(r: ResolvedRun, events: readonly LedgerEvent[]): OptimizerResults | null {
  const o = r.learning.optimizer;
  if (o === null) return null;
  const spans: SpanRecord[] = [];
  let calls = 0;
  let usd = 0;
  let rejected = 0;
  for (const e of events) {
    if (e.type === "llm_call" && e.actor === PROPOSER_ACTOR) {
      if (e.status === "ok") calls++;
      usd += e.cost_usd;
    }
    if (e.type !== "note" || e.actor !== OPTIMIZER_ACTOR) continue;
    if (e.kind === "optimizer_rejected") rejected++;
    if (e.kind !== SPAN_NOTE) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(e.message);
    } catch {
      raw = undefined;
    }
    const parsed = SpanRecordSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`ledger line ${e.seq + 1}: not an optimizer span record`);
    spans.push(parsed.data);
  }
  return {
    span_days: o.span_days,
    control: o.control,
    promotion: o.promotion,
    proposer: o.control ? null : (o.proposer ?? r.agentName),
    spans,
    kept: spans.filter((s) => s.decision === "kept").length,
    reverted: spans.filter((s) => s.decision === "reverted").length,
    proposer_calls: calls,
    proposer_usd: usd,
    proposals_rejected: rejected,
  };
}
