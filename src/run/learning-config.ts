import { z } from "zod";
import { BestOfNSchema } from "../learning/best-of-n.js";
import type { MemoryMode } from "../learning/learning-runtime.js";
import type { FeedbackCondition } from "../tasks/task.js";
import { ConfigError } from "./config-error.js";
import { type OptimizerLearning, OptimizerLearningSchema } from "./optimizer-config.js";

/**
 * `agent.learning`: the learning method, a union on `method` (spec/harness.md "Config names"), each
 * method its own strict object: `none`; `best-of-n` (src/learning/best-of-n.ts; run by
 * src/run/best-of-n-run.ts); `optimizer`, the harness optimizer (src/run/optimizer-config.ts,
 * src/learning/optimizer.ts).
 */
export const LearningMethodSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("none") }).strict(),
  BestOfNSchema,
  OptimizerLearningSchema,
]);
export type LearningMethod = z.output<typeof LearningMethodSchema>;

/** What a run config asks of learning, resolved (the defaults and implications applied). */
export interface LearningSettings {
  memory: MemoryMode;
  memoryTools: boolean;
  dailyReset: boolean;
  memoryPhase: boolean;
  /** `agent.learning` with method optimizer (src/learning/optimizer.ts), defaults applied; null: no optimizer */
  optimizer: OptimizerLearning | null;
}

export interface LearningConfigInput {
  feedback: FeedbackCondition;
  /** the task declares `self` labels */
  taskSelf: boolean;
  /** the run's agent is an LLM agent (memory tools, the learned block and the curator need one) */
  llmAgent: boolean;
  /** the task's default for the memory tools when `agent.memory_tools` is absent (open-forecast: its `memory` param) */
  taskMemoryDefault: boolean;
  /** whole days of the episode (the optimizer needs at least two spans) */
  episodeDays: number;
  agent: {
    learning?: LearningMethod | undefined;
    memory?: MemoryMode | undefined;
    memory_tools?: boolean | undefined;
    scaffolding?: { daily_reset?: boolean | undefined; memory_phase?: boolean | undefined } | undefined;
  };
}

/**
 * Resolves and checks the learning fields of a run config (spec/harness.md "Learning × condition"):
 * outcome memory needs settled outcomes, so it is refused under `feedback: none` (it runs under
 * `oracle`, or `self` where the task defines labels); reflection uses delayed visible data only and
 * runs under every condition. `agent.memory: outcome | reflection` and `memory_phase` imply the memory
 * tools; turning them off explicitly beside either is an error. Reflection needs a model for its curator.
 */
export function resolveLearning(c: LearningConfigInput): LearningSettings {
  const memory = c.agent.memory ?? "none";
  const dailyReset = c.agent.scaffolding?.daily_reset ?? false;
  const memoryPhase = c.agent.scaffolding?.memory_phase ?? false;
  if (memory === "outcome" && c.feedback === "none")
    throw new ConfigError(
      "agent.memory: outcome memory drains settled outcomes, which the blind condition (feedback: none) never releases; " +
        "use feedback: oracle (or self where the task defines labels), or agent.memory: reflection (visible data only)",
    );
  if (memory === "outcome" && c.feedback === "self" && !c.taskSelf)
    throw new ConfigError("agent.memory: outcome memory under feedback: self needs the task's self labels");
  if (c.agent.memory_tools === false && (memory !== "none" || memoryPhase))
    throw new ConfigError(
      `agent.memory_tools: false contradicts ${memory !== "none" ? `agent.memory: ${memory}` : "agent.scaffolding.memory_phase"}, which needs the memory tools`,
    );
  if (!c.llmAgent && (memory === "reflection" || c.agent.memory_tools === true || dailyReset || memoryPhase))
    throw new ConfigError(
      "agent: memory tools, reflection and the scaffolding switches act on an LLM agent; the scripted agent runs its policy unchanged",
    );
  const memoryTools = c.llmAgent && (c.agent.memory_tools ?? (memory !== "none" || memoryPhase || c.taskMemoryDefault));
  return { memory, memoryTools, dailyReset, memoryPhase, optimizer: resolveOptimizer(c) };
}

/**
 * The harness optimizer needs settled outcomes (its proposer reads the hindsight released so far and
 * its promotion rule compares settled span scores): refused under `feedback: none`, and under `self`
 * unless the task defines labels. It edits an LLM agent's harness, and needs at least two spans.
 */
function resolveOptimizer(c: LearningConfigInput): OptimizerLearning | null {
  const l = c.agent.learning;
  if (l === undefined) return null;
  switch (l.method) {
    case "none":
    case "best-of-n":
      return null;
    case "optimizer": {
      if (c.feedback === "none")
        throw new ConfigError(
          "agent.learning: the harness optimizer learns from settled outcomes, which the blind condition (feedback: none) never releases; " +
            "use feedback: oracle (or self where the task defines labels)",
        );
      if (c.feedback === "self" && !c.taskSelf)
        throw new ConfigError(
          "agent.learning: the harness optimizer under feedback: self needs the task's self labels",
        );
      if (!c.llmAgent)
        throw new ConfigError(
          "agent.learning: the harness optimizer edits an LLM agent's harness (instructions, tunable params, watcher program); the scripted agent runs its policy unchanged",
        );
      if (l.span_days >= c.episodeDays)
        throw new ConfigError(
          `agent.learning.span_days: ${l.span_days} leaves no cut in an episode of ${c.episodeDays} days (at least two spans are needed)`,
        );
      return l;
    }
    default: {
      const never: never = l;
      throw new Error(`internal: unknown learning method ${JSON.stringify(never)}`);
    }
  }
}
