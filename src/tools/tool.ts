import type { z } from "zod";

/** What a tool handler returns: a value for the agent, or a free rejection with a clear reason. */
export type ToolResult =
  | {
      ok: true;
      value: unknown;
      /** a metered cost known only after the call ran (e.g. query embedding tokens), booked with the price */
      cost_usd?: number;
    }
  | { ok: false; error: string };

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

/** A tool as its author writes it: arguments typed by the zod schema `S`. `defineTool` erases `S`. */
export interface ToolSpec<S extends z.ZodType> {
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

/** One call whose arguments passed the tool's schema: typed inside, opaque outside. */
export interface BoundCall {
  /** the parsed arguments (what a `commitment` event records) */
  args: unknown;
  price: number;
  weight: number;
  run(ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/**
 * A type-erased tool: what tool lists, runtimes and agents hold. Its argument type lives only
 * inside `bind`, so lists of different tools need no casts.
 */
export interface ToolDef {
  readonly name: string;
  readonly description: string;
  /** the argument schema (for docs, JSON Schema and repair hints) */
  readonly args: z.ZodType;
  readonly kind: ToolKind;
  readonly domain?: string;
  readonly limiter?: string;
  /** validates raw arguments: a bound call, or the schema's error */
  bind(rawArgs: unknown): { ok: true; call: BoundCall } | { ok: false; error: z.ZodError };
  /** validates and runs one call outside a runtime (no ledger, wallet or limiter): invalid arguments are a rejection */
  invoke(rawArgs: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** the price of one call with these arguments (0 when they are invalid) */
  priceOf(rawArgs: unknown): number;
}

/** Erases a typed tool spec into a `ToolDef`; handlers keep typed arguments without casts. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolDef {
  const { price, weight, run, ...meta } = spec;
  const tool: ToolDef = {
    ...meta,
    async invoke(rawArgs, ctx) {
      const b = tool.bind(rawArgs);
      return b.ok
        ? await b.call.run(ctx)
        : { ok: false, error: `invalid arguments for ${spec.name}: ${b.error.message}` };
    },
    priceOf(rawArgs) {
      const b = tool.bind(rawArgs);
      return b.ok ? b.call.price : 0;
    },
    bind(rawArgs) {
      const parsed = spec.args.safeParse(rawArgs);
      if (!parsed.success) return { ok: false, error: parsed.error };
      const args = parsed.data as z.infer<S>;
      return {
        ok: true,
        call: {
          args,
          price: price?.(args) ?? 0,
          weight: weight?.(args) ?? 1,
          run: (ctx) => run(args, ctx),
        },
      };
    },
  };
  return tool;
}
