import { z } from "zod";
import { MINUTE_MS, parseDurationMs } from "../common/time.js";

/**
 * Trigger policies as code (spec/harness.md, config `agent.trigger_module`; issue 15 §3): a policy
 * decides, from the clock and what became visible since its last check, whether the agent wakes now
 * or when to check again. The harness feeds it the task's `observations(since, now)` (read through
 * the run's as-of view, so a policy never sees anything published after now).
 */

/** Something that became visible (the shape of the task contract's `Observation`). */
export interface TriggerObservation {
  t: number;
  kind: string;
  id: string;
  summary: string;
}

/** wake the agent now, or check again at `sleepUntil` (> now) */
export type TriggerDecision = "wake" | { sleepUntil: number };

export interface TriggerPolicy {
  /** how the policy is named in results and wake ids ("interval:15m", "keyword:…", "module:<file>") */
  readonly name: string;
  /**
   * Called when the agent's wake ends and then at each instant it asked for: `newObservations` is
   * what became visible in (previous check, now], in time order. Must be deterministic.
   */
  check(now: number, newObservations: readonly TriggerObservation[]): TriggerDecision;
}

/** how often the keyword policy looks at new observations */
export const KEYWORD_CHECK_MS = 5 * MINUTE_MS;

/**
 * `interval:<duration>`: wakes on the fixed grid of multiples of the duration from the epoch (e.g.
 * every quarter hour at :00, :15, :30, :45), whatever it observes.
 */
export function intervalPolicy(stepMs: number, name = `interval:${stepMs / MINUTE_MS}m`): TriggerPolicy {
  if (!(Number.isInteger(stepMs) && stepMs > 0)) throw new Error(`interval policy: bad step ${stepMs}`);
  return {
    name,
    check: (now) => (now % stepMs === 0 ? "wake" : { sleepUntil: (Math.floor(now / stepMs) + 1) * stepMs }),
  };
}

/**
 * `keyword:<regex>`: every KEYWORD_CHECK_MS (on that grid), wakes when an observation that became
 * visible since the previous check has a summary, kind or id matching the regex (case-insensitive).
 */
export function keywordPolicy(pattern: string, everyMs = KEYWORD_CHECK_MS): TriggerPolicy {
  const re = new RegExp(pattern, "i");
  return {
    name: `keyword:${pattern}`,
    check: (now, obs) =>
      obs.some((o) => re.test(o.summary) || re.test(o.kind) || re.test(o.id))
        ? "wake"
        : { sleepUntil: (Math.floor(now / everyMs) + 1) * everyMs },
  };
}

/** Parses a built-in policy name (`interval:15m`, `keyword:<regex>`); a clear error when unreadable. */
export function builtInTriggerPolicy(spec: string): TriggerPolicy {
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const arg = i < 0 ? "" : spec.slice(i + 1);
  switch (kind) {
    case "interval": {
      const ms = parseDurationMs(arg);
      if (ms === null)
        throw new Error(
          `trigger "${spec}": cannot read the interval "${arg}"; use e.g. interval:15m, interval:1h, interval:30s`,
        );
      return intervalPolicy(ms, `interval:${arg}`);
    }
    case "keyword": {
      if (arg.length === 0) throw new Error(`trigger "${spec}": give a regular expression, e.g. keyword:outage|down`);
      try {
        return keywordPolicy(arg);
      } catch (err) {
        throw new Error(`trigger "${spec}": not a regular expression: ${(err as Error).message}`);
      }
    }
    default:
      throw new Error(
        `trigger "${spec}": unknown trigger policy "${kind}"; built-ins are interval:<duration> and keyword:<regex>`,
      );
  }
}

/** true for the names `builtInTriggerPolicy` reads */
export const isTriggerPolicyName = (s: string): boolean => /^(interval|keyword):./.test(s);

/** A decision as a policy module may return it (checked: a module is outside code). */
export const TriggerDecisionSchema = z.union([z.literal("wake"), z.object({ sleepUntil: z.number().int() }).strict()]);
