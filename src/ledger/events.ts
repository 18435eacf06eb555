import { z } from "zod";
import { TRIGGER_KINDS } from "../common/trigger-kind.js";

/**
 * Every ledger event. `t` is simulated UTC epoch ms; `seq` is the 0-based line number,
 * assigned by the writer. Events are appended in simulated order (DESIGN invariant 3).
 */
const base = { seq: z.number().int().nonnegative(), t: z.number().int() };

export const RunStartEvent = z.object({
  ...base,
  type: z.literal("run_start"),
  /** the line format (serialize.ts); absent in version-1 ledgers */
  ledger_version: z.number().int().positive().optional(),
  run_id: z.string(),
  task: z.string(),
  task_version: z.string(),
  episode: z.string(),
  sim_start: z.number().int(),
  sim_end: z.number().int(),
  seed: z.number().int(),
  agent: z.string(),
  trigger: z.enum(TRIGGER_KINDS),
  world_hash: z.string(),
  budget_usd: z.number(),
});

export const WakeEvent = z.object({
  ...base,
  type: z.literal("wake"),
  actor: z.string(),
  /** start | sleep | trigger | cron | fallback | deadline | learn (the daily learn wake of agent.memory); watcher runs: handover | program_end (returned, crashed or deadline) */
  reason: z.enum(["start", "sleep", "trigger", "cron", "fallback", "deadline", "learn", "handover", "program_end"]),
  trigger_id: z.string().optional(),
});

export const WaitEvent = z.object({
  ...base,
  type: z.literal("wait"),
  actor: z.string(),
  /** requested wake time; null = wait for the next trigger (or the fallback midnight wake) */
  until: z.number().int().nullable(),
  tool: z.string(),
});

export const ToolCallEvent = z.object({
  ...base,
  type: z.literal("tool_call"),
  actor: z.string(),
  tool: z.string(),
  args: z.unknown(),
  /** ok: ran; rejected: the agent's error (free); rate_limited: refused by a limiter (free); unpaid: wallet spent (free) */
  status: z.enum(["ok", "rejected", "rate_limited", "unpaid"]),
  cost_usd: z.number().nonnegative(),
  /** spend domain booked against (e.g. "data", "search", "http") */
  domain: z.string(),
  error: z.string().optional(),
  /** sha256 (hex, first 16) of the JSON result returned to the agent: checks replay without storing bodies */
  result_hash: z.string().optional(),
});

export const CommitmentEvent = z.object({
  ...base,
  type: z.literal("commitment"),
  actor: z.string(),
  tool: z.string(),
  args: z.unknown(),
});

export const OutcomeEvent = z.object({
  ...base,
  type: z.literal("outcome"),
  /** unique key of the scored unit, e.g. "day:2026-03-02" or "BTC-USD@2026-03-02T05" */
  key: z.string(),
  status: z.string(),
  credit: z.number().nullable(),
  /**
   * when feedback may release it (≥ t): the later of settlement and the instant every fact of its
   * payload is visible in the world. Absent in ledgers written before it existed (then: t).
   */
  released_at: z.number().optional(),
  detail: z.record(z.string(), z.unknown()),
});

export const DailyBriefEvent = z.object({
  ...base,
  type: z.literal("daily_brief"),
  day: z.number().int().positive(),
  days: z.number().int().positive(),
  spent_usd: z.number(),
  left_usd: z.number(),
  llm_spent_usd: z.number(),
  llm_left_usd: z.number(),
  by_type: z.record(z.string(), z.number()),
  text: z.string(),
});

export const LlmCallEvent = z.object({
  ...base,
  type: z.literal("llm_call"),
  actor: z.string(),
  model: z.string(),
  call_index: z.number().int().nonnegative(),
  attempt: z.number().int().positive(),
  status: z.enum(["ok", "error"]),
  error: z.string().optional(),
  input_tokens: z.number().int().nonnegative(),
  cached_input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  /** the provider's own reported charge (OpenRouter `usage.cost`): logged beside the booked cost, never booked */
  provider_cost_usd: z.number().nonnegative().optional(),
});

export const LlmRejectedEvent = z.object({
  ...base,
  type: z.literal("llm_rejected"),
  actor: z.string(),
  reason: z.string(),
});

export const NoteEvent = z.object({
  ...base,
  type: z.literal("note"),
  actor: z.string().optional(),
  /** system notices worth keeping: runaway guard, finished early, degenerate, ... */
  kind: z.string(),
  message: z.string(),
});

/**
 * A Best-of-N prune (src/learning/best-of-n.ts): after day `day` the branches still running were
 * compared by their settled score on [sim_start, t); the ones not kept stopped here, and their spend
 * up to here is booked to the run's wallet by this line (the survivor's own lines book its spend).
 * Each branch names its record (`branches/b<k>/ledger.jsonl`: line count and sha256 of those lines).
 */
export const PruneEvent = z.object({
  ...base,
  type: z.literal("prune"),
  /** the 1-based episode day after which the branches were compared */
  day: z.number().int().positive(),
  branches: z.array(
    z.object({
      branch: z.number().int().nonnegative(),
      /** the primary on [sim_start, t) (the anytime value of the day); null: nothing scorable yet */
      score: z.number().nullable(),
      /** the branch's spend up to t */
      spent_usd: z.number().nonnegative(),
      /** that spend by domain and type (what the wallet books when the branch stops here) */
      spend: z.array(z.object({ domain: z.string(), type: z.string(), usd: z.number().nonnegative() })),
      /** the branch's ledger lines up to t, and the sha256 (hex) of those lines (each with its newline) */
      ledger_lines: z.number().int().nonnegative(),
      ledger_sha256: z.string(),
      /** true: it runs on; false: it stopped here */
      kept: z.boolean(),
    }),
  ),
});

export const RunEndEvent = z.object({
  ...base,
  type: z.literal("run_end"),
  reason: z.enum(["sim_end"]),
});

export const LedgerEvent = z.discriminatedUnion("type", [
  RunStartEvent,
  WakeEvent,
  WaitEvent,
  ToolCallEvent,
  CommitmentEvent,
  OutcomeEvent,
  DailyBriefEvent,
  LlmCallEvent,
  LlmRejectedEvent,
  NoteEvent,
  PruneEvent,
  RunEndEvent,
]);

export type LedgerEvent = z.infer<typeof LedgerEvent>;
export type LedgerEventType = LedgerEvent["type"];
/** An event before the writer assigns `seq`. */
export type NewLedgerEvent = LedgerEvent extends infer E ? (E extends LedgerEvent ? Omit<E, "seq"> : never) : never;
export type EventOf<T extends LedgerEventType> = Extract<LedgerEvent, { type: T }>;
