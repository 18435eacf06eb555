import type { z } from "zod";
import type { PullContext } from "./pull-context.js";

/** A CLI option of a pull source (commander flags; `repeatable` collects every occurrence). */
export interface PullOption {
  flags: string;
  description: string;
  repeatable?: boolean;
  default?: string;
}

/** One endpoint of a source: its default base URL and the env variable overriding it. */
export interface PullEndpoint {
  default: string;
  env: string;
}

/**
 * A `relive data pull` source: its endpoints, rate limits, CLI options (validated by `schema`) and
 * its plan, walked by `run` through a PullContext (every item resumable and rate-limited).
 */
export interface PullSource<O = unknown> {
  name: string;
  describe: string;
  endpoints: Readonly<Record<string, PullEndpoint>>;
  /** requests per second when not given */
  defaultRate: number;
  /** the most requests per second the source's terms allow (refused above) */
  maxRate?: number;
  /** refuse to run without a User-Agent carrying a contact e-mail address (the SEC's rule) */
  contactUserAgent?: boolean;
  options: readonly PullOption[];
  schema: z.ZodType<O>;
  run(ctx: PullContext, o: O): Promise<void>;
}

/** A source with its option type erased (the registry's element type). */
export type AnyPullSource = PullSource<unknown>;

export const definePullSource = <O>(s: PullSource<O>): PullSource<O> => s;
