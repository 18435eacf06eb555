import { type BestOfN, branchRng, branchSeed, keepSchedule } from "../learning/best-of-n.js";
import type { ReferencePolicy } from "../tasks/task.js";
import { episodeDays } from "./checkpoint.js";
import type { RunConfig } from "./config.js";
import { ConfigError } from "./config-error.js";

/** The run's Best-of-N method, or null when it runs as one agent. */
export function bestOfNOf(config: RunConfig): BestOfN | null {
  const l = config.agent.learning;
  return l?.method === "best-of-n" ? l : null;
}

/** The model's sampling seed: the run seed, or branch k's drawn seed (`agent.branch`). */
export const samplingSeed = (config: RunConfig) => branchSeed(config.seed, config.agent.branch ?? 0);

export interface BestOfNCheck {
  config: RunConfig;
  taskId: string;
  taskSelf: boolean;
  sim_start: number;
  sim_end: number;
  /** the scripted agent's policy, or null for LLM and outside agents */
  policy: ReferencePolicy | null;
  external: boolean;
}

/**
 * Config-time checks of `agent.learning: best-of-n` and `agent.branch` (spec/harness.md "Learning ×
 * condition"): Best-of-N compares branches by settled outcomes, so it is refused under `feedback: none`
 * (and under `self` without the task's labels); every prune day must fall inside the episode (a prune
 * after day D happens at the start of day D + 1, so D ≤ days − 1); a scripted policy must have a
 * parameter draw, else its branches would be identical; outside agents cannot be re-run, so they
 * cannot branch. A branch config (`agent.branch`) is a single run and cannot itself be Best-of-N.
 */
export function checkBestOfN(c: BestOfNCheck): void {
  const b = bestOfNOf(c.config);
  const branch = c.config.agent.branch;
  if (branch !== undefined && b !== null)
    throw new ConfigError(
      "agent.branch: a Best-of-N branch is a single run; it cannot itself be agent.learning: best-of-n",
    );
  if (branch !== undefined && c.policy !== null && c.policy.draw === undefined)
    throw new ConfigError(
      `agent.branch: scripted:${c.policy.name} of task ${c.taskId} has no parameter draw, so its branches are identical`,
    );
  if (branch !== undefined && c.external)
    throw new ConfigError("agent.branch: an outside agent cannot be a Best-of-N branch (it cannot be re-run)");
  if (b === null) return;
  if (c.config.feedback === "none")
    throw new ConfigError(
      "agent.learning: best-of-n keeps the branch with the best settled score, and the blind condition (feedback: none) " +
        "never settles anything for the agent's side; use feedback: oracle (or self where the task defines labels)",
    );
  if (c.config.feedback === "self" && !c.taskSelf)
    throw new ConfigError(`agent.learning: best-of-n under feedback: self needs task ${c.taskId}'s self labels`);
  const days = episodeDays(c.sim_start, c.sim_end);
  const late = b.prune_days.filter((d) => d > days - 1);
  if (late.length)
    throw new ConfigError(
      `agent.learning.prune_days: ${late.join(", ")} not inside the episode of ${days} days (a prune after day D needs day D + 1; days 1..${days - 1})`,
    );
  const keep = keepSchedule(b);
  if (keep.some((k) => k >= b.n))
    throw new ConfigError(`agent.learning.keep: every prune must stop a branch (keep < n = ${b.n})`);
  if (c.external)
    throw new ConfigError("agent.learning: best-of-n re-runs its branches; an outside agent cannot be re-run");
  if (c.policy !== null && c.policy.draw === undefined)
    throw new ConfigError(
      `agent.learning: best-of-n with scripted:${c.policy.name}: the policy has no parameter draw (ReferencePolicy.draw), so its branches would be identical`,
    );
}

/** The policy a scripted branch runs: the reference policy for branch 0, its parameter draw for branch k ≥ 1. */
export function branchPolicy(policy: ReferencePolicy, config: RunConfig): ReferencePolicy {
  const k = config.agent.branch;
  if (k === undefined) return policy;
  if (policy.draw === undefined) throw new Error(`internal: scripted:${policy.name} has no parameter draw`);
  return policy.draw(branchRng(config.seed, k));
}
