import { z } from "zod";
import { OPTIMIZER_SURFACES } from "../learning/harness-edit.js";
import { PROMOTION_RULES } from "../learning/promotion.js";

/**
 * `agent.learning: {method: optimizer, ...}` (spec/harness.md "Harness optimizer", issue 13 §5): the
 * episode is cut every `span_days`; at each cut the proposer edits the harness and the next span runs
 * with the edit; the promotion rule keeps or reverts it. `control: true` is the unchanged-harness
 * control arm: the same spans, cuts and per-span scores, no proposer call and no edit.
 */
export const OptimizerLearningSchema = z
  .object({
    method: z.literal("optimizer"),
    /** span length in simulated days (cuts at the start of days 1 + k·span_days) */
    span_days: z.number().int().positive().max(365).default(3),
    /** the proposer's `provider:model` (absent: the run's model); billed at its own prices, booked to the run */
    proposer: z.string().min(1).optional(),
    /** the control arm: the same spans and scores, the harness never edited (no proposer call) */
    control: z.boolean().default(false),
    /** predeclared: keep a candidate when its span scores not worse than (`not-worse`) or strictly better than (`better`) the incumbent's */
    promotion: z.enum(PROMOTION_RULES).default("not-worse"),
    /** what the proposer may edit (absent: every surface the run has: the addendum, the task's tunable params, the watcher program under the watcher trigger) */
    surface: z.array(z.enum(OPTIMIZER_SURFACES)).min(1).optional(),
    /** proposer calls per cut: the first and re-asks after a rejected proposal (default 3) */
    max_asks: z.number().int().min(1).max(5).default(3),
    /** the proposer's reply cap (default 2,048) */
    max_output_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
  })
  .strict();
export type OptimizerLearning = z.output<typeof OptimizerLearningSchema>;
