import type { z } from "zod";

/** What a tool handler returns: a value for the agent, or a free rejection with a clear reason. */
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: string };

export const ok = (value: unknown): ToolResult => ({ ok: true, value });
export const reject = (error: string): ToolResult => ({ ok: false, error });

/**
 * The role a tool plays. `data` reads the world (as-of view), `commit` records a commitment
 * (ledgered as a `commitment` event when accepted), `meta` is free bookkeeping (status, quota, docs).
 * Clock-moving waits (sleep, run_program, done) belong to triggers, not to tools.
 */
export type ToolKind = "data" | "commit" | "meta";

/** What a tool handler may use. `now` is the kernel's simulated time; handlers never read wall time. */
export interface ToolContext {
  now(): number;
  actor: string;
  /** ledger a system notice (e.g. a blocked browser request) right after this call's tool_call line */
  note?(kind: string, message: string): void;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  /** One paragraph for the agent: what it does, what it costs, limits. */
  description: string;
  args: S;
  kind: ToolKind;
  /** Spend domain for the wallet and the daily brief ("data", "search", ...). */
  domain?: string;
  /** Price in USD of one accepted call (0 when omitted). */
  price?: (args: z.infer<S>) => number;
  /** Name of a shared rate limiter registered with the runtime (several tools may share one). */
  limiter?: string;
  /** Rate-limiter weight of one call (default 1). */
  weight?: (args: z.infer<S>) => number;
  run(args: z.infer<S>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/** Helper so handlers get typed args without casts at definition sites. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef<S> {
  return def;
}
