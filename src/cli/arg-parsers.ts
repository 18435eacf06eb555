import { resolve } from "node:path";
import { InvalidArgumentError } from "commander";
import { ConfigError } from "../run/config-error.js";

/** commander argument parsers shared by the commands: the error names what was expected. */
export const nonNegativeInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
};

export const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

export const nonNegative = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a non-negative number");
  return n;
};

export const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number");
  return n;
};

/**
 * `-p key=value` flags merged over a config's `task_params`: the value is parsed as JSON when it
 * can be (`-p digest_size=5` is a number), else kept as a string.
 */
export function mergeTaskParams(base: unknown, flags: readonly string[] | undefined): Record<string, unknown> {
  const taskParams = { ...((base as object | undefined) ?? {}) } as Record<string, unknown>;
  for (const kv of flags ?? []) {
    const i = kv.indexOf("=");
    if (i <= 0) throw new ConfigError(`--param ${JSON.stringify(kv)}: expected key=value`);
    const v = kv.slice(i + 1);
    let value: unknown = v;
    try {
      value = JSON.parse(v);
    } catch {
      // a plain string
    }
    taskParams[kv.slice(0, i)] = value;
  }
  return taskParams;
}

/** The episode-level flags `relive run` and `relive mcp` share. */
export interface EpisodeFlags {
  param?: string[];
  feedback?: string;
  task?: string;
  taskModule?: string;
  episode?: string;
  seed?: number;
  worldSeed?: number;
  world?: string;
  budget?: number;
}

/** A config's fields (`base`, from `--config`) with the episode-level flags applied over them. */
export function withEpisodeFlags(base: Record<string, unknown>, o: EpisodeFlags): Record<string, unknown> {
  const taskParams = mergeTaskParams(base.task_params, o.param);
  return {
    ...base,
    ...(Object.keys(taskParams).length ? { task_params: taskParams } : {}),
    ...(o.feedback ? { feedback: o.feedback } : {}),
    ...(o.task ? { task: o.task } : {}),
    ...(o.taskModule ? { task_module: resolve(o.taskModule) } : {}),
    ...(o.episode ? { episode: o.episode } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.worldSeed !== undefined ? { world: { seed: o.worldSeed } } : {}),
    ...(o.world ? { world: { dir: o.world } } : {}),
    ...(o.budget ? { budget_usd: o.budget } : {}),
  };
}

/** commander collector of a repeatable option (`--recipes A --recipes B`) */
export const collectValues = (v: string, acc: string[] = []): string[] => [...acc, v];
