import type { OracleEnv, PolicyApi, PolicyRun, ReferencePolicy } from "./task.js";

interface PolicyMeta {
  name: string;
  description: string;
  /** under the sleep trigger: the next wake after `now` (null = sleep to the end) */
  nextWake(now: number): number | null;
  /** under the cron trigger: schedules the policy installs at its first wake */
  cron?: string[];
}

/**
 * A reference policy without per-run state: `act(api)` is the whole wake. Policies that keep state
 * between wakes implement `ReferencePolicy.start` themselves and hold it in the instance.
 */
export function statelessPolicy(p: PolicyMeta & { act(api: PolicyApi): Promise<void> }): ReferencePolicy {
  const { act, nextWake, ...meta } = p;
  return { ...meta, start: (api) => ({ act: () => act(api), nextWake }) };
}

/** A stateless oracle policy (tests and calibration only): it reads truth and the untouched world. */
export function oracleStatelessPolicy(
  p: PolicyMeta & { act(api: PolicyApi, env: OracleEnv): Promise<void> },
): ReferencePolicy {
  const { act, nextWake, ...meta } = p;
  return {
    ...meta,
    oracle: true,
    start: (api, env) => ({ act: () => act(api, requireOracle(p.name, env)), nextWake }),
  };
}

/** The oracle environment of an oracle policy's `start` (the runner gives it only to oracle policies). */
export function requireOracle(name: string, env: OracleEnv | null): OracleEnv {
  if (!env) throw new Error(`policy "${name}" is an oracle: it runs only with an oracle environment`);
  return env;
}

export type { PolicyRun };
