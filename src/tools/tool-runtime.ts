import { createHash } from "node:crypto";
import type { RateLimiter } from "../kernel/rate-limiter.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { Wallet } from "../ledger/wallet.js";
import type { ToolDef, ToolResult } from "./tool.js";
import { describeArgs, formatZodError } from "./tool-errors.js";
import { toolParameters } from "./tool-schema.js";

export interface ToolDoc {
  name: string;
  description: string;
  /** JSON Schema of the arguments, generated from the zod schema and made minimal (`tool-schema.ts`) */
  parameters: Record<string, unknown>;
  kind: ToolDef["kind"];
}

export interface ToolRuntimeOptions {
  tools: ToolDef[];
  limiters: Record<string, RateLimiter>;
  ledger: LedgerWriter;
  wallet: Wallet;
  now: () => number;
}

/** Error classes (by name) that views throw for the agent's own mistakes. */
const AGENT_ERRORS = new Set(["NotVisibleError", "SearchQueryError"]);

const hashResult = (value: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(value) ?? "undefined")
    .digest("hex")
    .slice(0, 16);

/**
 * Runs tool calls for any agent (scripted, LLM, watcher wrappers): validates arguments with zod,
 * applies shared rate limits and the wallet, runs the handler, and ledgers every call — accepted,
 * rejected (free, with a clear reason), rate-limited or unpaid. Accepted `commit` calls also
 * append a `commitment` event, which is what scorers consume.
 */
export class ToolRuntime {
  private readonly byName = new Map<string, ToolDef>();

  constructor(private readonly o: ToolRuntimeOptions) {
    for (const t of o.tools) {
      if (this.byName.has(t.name)) throw new Error(`duplicate tool name "${t.name}"`);
      if (t.limiter && !o.limiters[t.limiter])
        throw new Error(`tool "${t.name}" names rate limiter "${t.limiter}", which the task does not define`);
      this.byName.set(t.name, t);
    }
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  docs(): ToolDoc[] {
    return [...this.byName.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: toolParameters(t.args),
      kind: t.kind,
    }));
  }

  /**
   * A model's tool call: `argumentsText` is the raw JSON text the model produced. Empty text means
   * `{}`. Text that is not valid JSON is a free rejection (ledgered like any invalid arguments, so it
   * counts as a protocol retry) whose message names the valid arguments; valid JSON goes to `call`.
   */
  async callJson(actor: string, name: string, argumentsText: string): Promise<ToolResult> {
    const text = argumentsText.trim() === "" ? "{}" : argumentsText;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      const tool = this.byName.get(name);
      if (!tool) return this.call(actor, name, argumentsText);
      const error =
        `invalid arguments for ${name}: not valid JSON (${(err as Error).message}). ` +
        `Valid arguments: ${describeArgs(tool.args)}`;
      this.o.ledger.append({
        type: "tool_call",
        t: this.o.now(),
        actor,
        tool: name,
        args: argumentsText,
        status: "rejected",
        cost_usd: 0,
        domain: tool.domain ?? "tools",
        error,
      });
      return { ok: false, error };
    }
    return this.call(actor, name, raw);
  }

  /** The tool definition named `name` (undefined when unknown). */
  get(name: string): ToolDef | undefined {
    return this.byName.get(name);
  }

  async call(actor: string, name: string, rawArgs: unknown): Promise<ToolResult> {
    const t = this.o.now();
    const tool = this.byName.get(name);
    const domain = tool?.domain ?? "tools";
    const refuse = (status: "rejected" | "rate_limited" | "unpaid", error: string): ToolResult => {
      this.o.ledger.append({
        type: "tool_call",
        t,
        actor,
        tool: name,
        args: rawArgs ?? null,
        status,
        cost_usd: 0,
        domain,
        error,
      });
      return { ok: false, error };
    };
    if (!tool) return refuse("rejected", `unknown tool "${name}"; available tools: ${this.names().join(", ")}`);

    const bound = tool.bind(rawArgs ?? {});
    if (!bound.ok)
      return refuse(
        "rejected",
        `invalid arguments for ${name}: ${formatZodError(bound.error)}. Valid arguments: ${describeArgs(tool.args)}`,
      );
    const { call } = bound;
    const { args, price } = call;

    if (price > 0) {
      const why = this.o.wallet.refusal(domain);
      if (why) return refuse("unpaid", `${name} refused: ${why}`);
    }
    if (tool.limiter) {
      const got = this.o.limiters[tool.limiter]!.tryAcquire(t, call.weight);
      if (!got.ok)
        return refuse(
          "rate_limited",
          `rate limited (${tool.limiter}): retry after ${Math.ceil(got.retryAfterMs / 1000)} s`,
        );
    }

    const notes: { kind: string; message: string }[] = [];
    const flushNotes = () => {
      for (const n of notes) this.o.ledger.append({ type: "note", t, actor, kind: n.kind, message: n.message });
    };
    let result: ToolResult;
    try {
      result = await call.run({ now: this.o.now, actor, note: (kind, message) => notes.push({ kind, message }) });
    } catch (err) {
      // errors the agent causes (unknown or not-yet-visible ids, unusable queries) are free rejections
      if (err instanceof Error && AGENT_ERRORS.has(err.name)) result = { ok: false, error: err.message };
      else throw err;
    }
    if (this.o.now() !== t) throw new Error(`tool ${name} moved the clock: tools must never wait`);
    if (!result.ok) {
      const r = refuse("rejected", result.error);
      flushNotes();
      return r;
    }
    this.o.ledger.append({
      type: "tool_call",
      t,
      actor,
      tool: name,
      args: rawArgs ?? null,
      status: "ok",
      cost_usd: price + (result.cost_usd ?? 0),
      domain,
      result_hash: hashResult(result.value),
    });
    if (tool.kind === "commit") this.o.ledger.append({ type: "commitment", t, actor, tool: name, args });
    flushNotes();
    return result;
  }
}
