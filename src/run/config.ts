import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { parseUtcInstant } from "../common/time.js";
import { TRIGGER_KINDS } from "../common/trigger-kind.js";
import { builtInTriggerPolicy, isTriggerPolicyName } from "../triggers/trigger-policy.js";
import { ConfigError } from "./config-error.js";
import { LearningMethodSchema } from "./learning-config.js";

const isoOrMs = z.union([z.number().int(), z.string()]).transform((v, ctx) => {
  // a missing zone means UTC, whatever the host's zone
  const t = parseUtcInstant(v);
  if (t === null) {
    ctx.addIssue({ code: "custom", message: `not an ISO date-time or epoch ms: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return t;
});

/** `agent.trigger: interval:15m` (or keyword:…) is shorthand for trigger "policy" with that trigger_policy. */
const withTriggerPolicy = (raw: unknown): unknown => {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  const agent = r.agent as Record<string, unknown> | undefined;
  if (typeof agent !== "object" || agent === null || typeof agent.trigger !== "string") return raw;
  if (!isTriggerPolicyName(agent.trigger)) return raw;
  if (agent.trigger_policy !== undefined) return raw; // both given: the schema names the clash
  return { ...r, agent: { ...agent, trigger: "policy", trigger_policy: agent.trigger } };
};

/** The one run-config schema for every entry point (spec/runs.md). Unknown keys are errors. */
export const RunConfigSchema = z
  .object({
    task: z.string().min(1),
    /** a file defining the task (defineTask) outside the repo: `.js`/`.mjs`, or `.ts` through tsx */
    task_module: z.string().min(1).optional(),
    task_params: z.record(z.string(), z.unknown()).default({}),
    episode: z.string().optional(),
    sim_start: isoOrMs.optional(),
    sim_end: isoOrMs.optional(),
    world: z
      .union([
        z.object({ seed: z.number().int().nonnegative() }).strict(),
        z.object({ dir: z.string().min(1) }).strict(),
      ])
      .default({ seed: 1 }),
    agent: z
      .object({
        model: z.string().optional(),
        /** `interval:<duration>` and `keyword:<regex>` are read as trigger "policy" with that `trigger_policy` */
        trigger: z.enum(TRIGGER_KINDS).default("sleep"),
        /** the built-in trigger policy of trigger "policy": `interval:15m`, `keyword:<regex>` (src/triggers/trigger-policy.ts) */
        trigger_policy: z.string().min(1).optional(),
        /** a file exporting a trigger policy (`check(now, newObservations)`) for trigger "policy"; path and sha256 are recorded */
        trigger_module: z.string().min(1).optional(),
        cron_base: z.enum(["readonly", "editable"]).default("readonly"),
        /**
         * cron `when` gates (trigger cron only; src/triggers/cron-gate.ts): `program` is a JavaScript file gating the
         * base schedule and a scripted policy's own entries (path and sha256 are recorded); the caps apply to every
         * gate of the run, the agent's own included (default: the watcher's, 200 polls and 64 MB)
         */
        cron_gate: z
          .object({
            program: z.string().min(1).optional(),
            step_budget: z.number().int().positive().optional(),
            memory_mb: z.number().int().positive().max(1024).optional(),
          })
          .strict()
          .optional(),
        deadline_guard: z.boolean().default(false),
        /**
         * the deadline guard wakes the agent this many minutes before each known deadline (absent: 60);
         * refused when longer than the task's shortest deadline lead (`TaskSpec.deadlineLead`)
         */
        deadline_guard_margin_min: z
          .number()
          .positive()
          .max(7 * 24 * 60)
          .optional(),
        /** LLM runs: the task's program shape (default; e.g. one agent per market plus a coordinator) or one agent */
        program: z.enum(["task", "single"]).optional(),
        context_tokens: z.number().int().positive().default(60_000),
        /** model settings (LLM agents only; recorded in config.json, usable as grid axes) */
        effort: z.enum(["none", "low", "medium", "high", "max"]).optional(),
        temperature: z.number().min(0).max(2).optional(),
        /** default 4,096 */
        max_output_tokens: z.number().int().positive().optional(),
        /** outside agents (`external:<name>`): the `provider:model` the metering proxy forwards to, billed by the price table */
        upstream_model: z.string().optional(),
        /** per-request timeout of the model client in seconds (default 120; slow local models need more) */
        request_timeout_s: z.number().positive().max(3600).optional(),
        /**
         * learning from hindsight (src/learning): outcome memory (a daily learn step drains released outcomes;
         * refused under feedback: none) or reflection (a daily curator keeps ≤ 6 generalized lessons); absent: none
         */
        memory: z.enum(["none", "outcome", "reflection"]).optional(),
        /**
         * the learning method (absent: none), refused under feedback: none: `{method: best-of-n, n, prune_days,
         * keep}` runs n branches and keeps the best by settled score at each prune day (src/learning/best-of-n.ts);
         * `{method: optimizer, span_days, proposer, control, promotion}` the harness optimizer (src/learning/optimizer.ts)
         */
        learning: LearningMethodSchema.optional(),
        /**
         * this run is branch k (≥ 1) of a Best-of-N run with the same config: its model sampling seed and a
         * scripted policy's parameters are drawn from (seed, k); absent: branch 0, the run itself
         */
        branch: z.number().int().positive().optional(),
        /** the harness's memory tools (memory_read, memory_append); implied by memory outcome|reflection and memory_phase */
        memory_tools: z.boolean().optional(),
        /**
         * text shown to every LLM actor right after the task's instruction ("## Additional instructions");
         * a restart may switch it at a day boundary, the harness optimizer edits it
         */
        instruction_addendum: z.string().max(8000).optional(),
        /** the reflection curator's own model settings (absent: the agent's model, max_output_tokens 1,024) */
        curator: z
          .object({
            /** the curator's own `provider:model` (absent: the run's model); billed at its prices, booked to the run */
            model: z.string().min(1).optional(),
            max_output_tokens: z.number().int().positive().optional(),
            temperature: z.number().min(0).max(2).optional(),
          })
          .strict()
          .optional(),
        /**
         * FutureSim's scaffolding switches (spec/harness.md "Scaffolding options"; each a grid axis, all
         * off by default): `daily_reset`, `memory_phase` (src/learning), `context_feedback` (a tokens
         * used/left line after each tool result), `guidance` (a wake line: v1 goal and day, v2 + open
         * items, v3 + what is due tomorrow), `procedure` (the daily checklist in the system prompt)
         */
        scaffolding: z
          .object({
            /** clear the transcript at each new simulated day (memory and the state block carry over) */
            daily_reset: z.boolean().optional(),
            /** a forced memory-only turn at the first wake after 23:00 of a day, or at 90 % of the context limit */
            memory_phase: z.boolean().optional(),
            context_feedback: z.boolean().default(false),
            guidance: z.enum(["none", "v1", "v2", "v3"]).default("none"),
            procedure: z.boolean().default(false),
          })
          .strict()
          .optional(),
        /** watcher sandbox caps (watcher trigger only): interrupt polls between waits (about 10,000
         * operations each; default 200) and the program's memory in MB (default 64) */
        watcher: z
          .object({
            step_budget: z.number().int().positive().optional(),
            memory_mb: z.number().int().positive().max(1024).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .superRefine((a, ctx) => {
        const given = [a.trigger_policy, a.trigger_module].filter((x) => x !== undefined).length;
        if (a.trigger === "policy" && given !== 1)
          ctx.addIssue({
            code: "custom",
            path: ["trigger"],
            message:
              'trigger "policy" needs exactly one of trigger_policy (interval:15m, keyword:<regex>) or trigger_module',
          });
        if (a.trigger !== "policy" && given > 0)
          ctx.addIssue({
            code: "custom",
            path: [a.trigger_policy !== undefined ? "trigger_policy" : "trigger_module"],
            message: `needs trigger "policy" (the run's trigger is "${a.trigger}")`,
          });
        if (a.cron_gate !== undefined && a.trigger !== "cron")
          ctx.addIssue({
            code: "custom",
            path: ["cron_gate"],
            message: `needs trigger "cron" (the run's trigger is "${a.trigger}")`,
          });
        if (a.trigger_policy !== undefined)
          try {
            builtInTriggerPolicy(a.trigger_policy);
          } catch (err) {
            ctx.addIssue({ code: "custom", path: ["trigger_policy"], message: (err as Error).message });
          }
      })
      .default({
        trigger: "sleep",
        cron_base: "readonly",
        deadline_guard: false,
        context_tokens: 60_000,
      }),
    feedback: z.enum(["none", "oracle", "self"]).default("none"),
    /** BM25 corpus statistics of news search: the whole world's (default) or strictly as of now (src/world SearchStats) */
    search: z.enum(["global", "strict"]).optional(),
    budget_usd: z.number().positive().optional(),
    domain_budgets: z.record(z.string(), z.number().nonnegative()).default({ llm: 20 }),
    seed: z.number().int().nonnegative().default(0),
    /** model price override: a prices file (replaces src/models/prices.yaml) or rows merged over it */
    model_prices: z
      .union([
        z.string().min(1),
        z.record(
          z.string(),
          z
            .object({
              input: z.number().nonnegative(),
              cached_input: z.number().nonnegative(),
              output: z.number().nonnegative(),
              cutoff: z.string().optional(),
            })
            .strict(),
        ),
      ])
      .optional(),
  })
  .strict()
  .refine((c) => (c.sim_start === undefined) === (c.sim_end === undefined), {
    message: "sim_start and sim_end must be given together",
    path: ["sim_start"],
  });

export type RunConfigInput = z.input<typeof RunConfigSchema>;
export type RunConfig = z.output<typeof RunConfigSchema>;

export { ConfigError } from "./config-error.js";

/** Validates a config object; the error names every bad field and the reason. */
export function parseRunConfig(raw: unknown, source = "config"): RunConfig {
  const parsed = RunConfigSchema.safeParse(withTriggerPolicy(raw));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
    throw new ConfigError(`invalid run config in ${source}:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** Reads a YAML or JSON config file. */
export function loadRunConfig(path: string): RunConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read config ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError(
      `config ${path} is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(err as Error).message}`,
    );
  }
  return parseRunConfig(raw, path);
}

export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
