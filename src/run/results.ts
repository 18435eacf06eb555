import { readFileSync } from "node:fs";
import { z } from "zod";
import { TRIGGER_KINDS } from "../common/trigger-kind.js";
import { OptimizerResultsSchema } from "./optimizer-results.js";

const Metric = z.object({ name: z.string(), value: z.number().nullable(), direction: z.enum(["higher", "lower"]) });

/** results.json (spec/runs.md). Published as schema/results.schema.json (`npm run schema`). */
export const ResultsSchema = z.object({
  schema_version: z.literal(1),
  run_id: z.string(),
  task: z.string(),
  task_version: z.string(),
  scorer_version: z.string(),
  harness_version: z.string(),
  /** who acted: `relive-react` (relive's own LLM harness) or an outside app `external:<name>`; absent for scripted agents */
  harness: z.string().optional(),
  /** the task's capability axes (tasks.md): reports slice results by them */
  task_axes: z.object({ time_sensitivity: z.string(), reasoning: z.string(), recurrence: z.string() }).optional(),
  /** outside apps: the `provider:model` their traffic went to through the metering proxy */
  upstream_model: z.string().optional(),
  episode: z.string(),
  agent: z.string(),
  trigger: z.enum(TRIGGER_KINDS),
  seed: z.number().int(),
  sim_start: z.string(),
  sim_end: z.string(),
  performance: z.object({ primary: Metric }).catchall(z.union([z.number().nullable(), Metric])),
  outcomes: z.array(
    z.object({
      t: z.string(),
      key: z.string(),
      status: z.string(),
      credit: z.number().nullable(),
      detail: z.record(z.string(), z.unknown()),
    }),
  ),
  not_scorable: z.array(z.object({ key: z.string(), reason: z.string() })),
  resources: z.object({
    budget_usd: z.number(),
    spent_usd: z.number(),
    llm_usd: z.number(),
    fees_usd: z.number(),
    overshoot_usd: z.number(),
    spend_by_type: z.record(z.string(), z.number()),
    tokens: z.object({ input: z.number().int(), cached_input: z.number().int(), output: z.number().int() }),
    wakes: z.number().int(),
    tool_calls: z.number().int(),
    rejected_calls: z.number().int(),
    protocol_retries: z.number().int(),
    llm_calls: z.number().int(),
    /** model attempts that failed (429, 5xx, timeouts, empty replies): retried, never billed */
    llm_failed_attempts: z.number().int(),
    /**
     * what the provider itself reported charging (OpenRouter `usage.cost`) for the calls that reported
     * it, beside `llm_booked_usd` (the booked cost of those same calls); null when no call reported a
     * cost. `provider_cost_diff` = (reported − booked) / booked (null when booked is 0). Optional so
     * results written before it still load.
     */
    provider_cost_usd: z.number().nullable().optional(),
    provider_cost_booked_usd: z.number().nullable().optional(),
    provider_cost_diff: z.number().nullable().optional(),
  }),
  flags: z.object({
    budget_exhausted: z.boolean(),
    llm_budget_exhausted: z.boolean(),
    failed_degenerate: z.boolean(),
    finished_early: z.boolean(),
    /** the provider failed for good (bad key, unknown model, unreachable): the measurement is broken */
    provider_failed: z.boolean().optional(),
    /** the provider-reported cost differs from the booked cost by more than 5% (a price-table warning) */
    provider_cost_mismatch: z.boolean().optional(),
    /** set by tasks that check the world they ran on (measurement broken when true) */
    world_mismatch: z.boolean().optional(),
    /**
     * the episode starts before the model's knowledge cutoff (price table `cutoff`); null: an LLM whose
     * cutoff is not listed; false for scripted agents. Optional so results written before it still load.
     */
    before_knowledge_cutoff: z.boolean().nullable().optional(),
    /** outside-agent runs only: no MCP request for the idle timeout (wall clock), so the run was ended */
    external_idle_timeout: z.boolean().optional(),
    /** `relive run --agent-cmd ... --no-isolation`: the app's network was not limited to the proxy and MCP endpoint */
    external_no_isolation: z.boolean().optional(),
  }),
  timing: z.object({
    anytime: z.array(z.object({ day: z.number().int(), t: z.string(), primary: z.number().nullable() })),
    anytime_interval: z.literal("1 simulated day (primary recomputed on the window [sim_start, day end))"),
    auc: z.number().nullable(),
    /** observer view: the best primary of the anytime curve (the agent-selected final is performance.primary) */
    best_so_far: z.number().nullable(),
    first_commitment_hours: z.number().nullable(),
    target: z.number(),
    hours_to_target: z.number().nullable(),
  }),
  diagnostics: z.object({
    days_without_wake: z.number().int(),
    weekly_median_wake_interval_h: z.array(z.number().nullable()),
    wake_interval_drift: z.number().nullable(),
    noop_wake_share: z.number().nullable(),
    late_deviation_weeks: z.array(z.number().int()),
    missed: z.number().int(),
    wake_reasons: z.record(z.string(), z.number().int()),
    /**
     * hours from an event to the commitment that answered it (outcomes' `detail.reaction_h`; p90 by
     * nearest rank); n = 0 when none. Always written; optional so results written before it still
     * load (`relive rescore` adds it).
     */
    reaction_h: z
      .object({
        n: z.number().int(),
        p50: z.number().nullable(),
        p90: z.number().nullable(),
        mean: z.number().nullable(),
      })
      .optional(),
  }),
  /**
   * Best-of-N + Prune runs only (src/learning/best-of-n.ts), derived from the ledger's `prune` lines:
   * every branch's settled score at each prune it took part in and its spend up to where it stopped
   * (the survivor: the whole episode); `cost_ratio` = the run's spend / the survivor's (a single run's).
   */
  best_of_n: z
    .object({
      n: z.number().int(),
      prune_days: z.array(z.number().int()),
      keep: z.array(z.number().int()),
      survivor: z.number().int(),
      branches: z.array(
        z.object({
          branch: z.number().int(),
          /** its model sampling seed (branch 0: the run seed) */
          sampling_seed: z.number().int(),
          /** the prune day it stopped after; null: the survivor */
          stopped_after_day: z.number().int().nullable(),
          spent_usd: z.number(),
          scores: z.array(z.object({ day: z.number().int(), score: z.number().nullable() })),
        }),
      ),
      prunes: z.array(
        z.object({ day: z.number().int(), ranking: z.array(z.number().int()), kept: z.array(z.number().int()) }),
      ),
      survivor_spent_usd: z.number(),
      stopped_spent_usd: z.number(),
      cost_ratio: z.number().nullable(),
    })
    .optional(),
  /** harness-optimizer runs (`agent.learning: {method: optimizer}`): per-span scores and promotion decisions */
  optimizer: OptimizerResultsSchema.optional(),
});

export type Results = z.infer<typeof ResultsSchema>;

/** Flags meaning the measurement itself is broken: `relive run` exits non-zero when one is set. */
export const BROKEN_FLAGS = ["provider_failed", "failed_degenerate", "world_mismatch"] as const;

/** |reported − booked| / booked above this sets `provider_cost_mismatch`. */
export const PROVIDER_COST_TOLERANCE = 0.05;

export const brokenFlags = (r: Results): string[] =>
  BROKEN_FLAGS.filter((f) => (r.flags as Record<string, boolean | undefined>)[f] === true);

export const resultsJsonSchema = () => z.toJSONSchema(ResultsSchema, { target: "draft-2020-12" });

/** Reads a run's results.json back through its schema; a bad file is named with what is wrong. */
export function readResultsFile(path: string): Results {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${path}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = ResultsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${path}: not a relive results file:\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}`,
    );
  return parsed.data;
}
