import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import { BackgroundFsync } from "../ledger/background-fsync.js";
import type { Redactor } from "../ledger/redactor.js";
import { CassetteEntrySchema, requestHash } from "../models/cassette.js";
import {
  type CallContext,
  type GenerateRequest,
  type GenerateResponse,
  MODEL_ERROR_KINDS,
  type Model,
  ModelError,
  type ModelErrorKind,
} from "../models/model.js";

/** One line of `llm.jsonl`: exactly the cassette format, so any run's traffic is a cassette. */
export interface LlmLogEntry {
  actor: string;
  call_index: number;
  model: string;
  request_hash: string;
  response: GenerateResponse;
}

/** The text an attempt's error is ledgered with (`llm_call.error`): `<kind>: <message>` for provider errors. */
export function attemptErrorText(e: unknown): string {
  if (e instanceof ModelError) return `${e.kind}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/** Rebuilds the ModelError an `llm_call.error` text came from (same kind and message, so the same text). */
export function modelErrorFromText(text: string): ModelError {
  const i = text.indexOf(": ");
  const kind = i > 0 ? (text.slice(0, i) as ModelErrorKind) : null;
  if (kind !== null && MODEL_ERROR_KINDS.includes(kind)) return new ModelError(kind, text.slice(i + 2));
  return new ModelError("server", text);
}

const key = (actor: string, index: number) => `${actor}\u0000${index}`;

/** Reads llm.jsonl, dropping a torn last line (a crash mid-append); `repair` also cuts it from the file. */
export function readLlmLog(path: string, o: { repair?: boolean } = {}): LlmLogEntry[] {
  if (!existsSync(path)) return [];
  const buf = readFileSync(path);
  const end = buf.lastIndexOf(10) + 1;
  if (o.repair && end < buf.length) truncateSync(path, end);
  const text = buf.subarray(0, end).toString("utf8");
  const lines = text.split("\n");
  const out: LlmLogEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      if (i === lines.length - 1) break;
      throw new Error(`${path}:${i + 1}: not valid JSON (${(err as Error).message})`);
    }
    const entry = CassetteEntrySchema.safeParse(raw);
    if (!entry.success)
      throw new Error(
        `${path}:${i + 1}: not an llm.jsonl entry: ${entry.error.issues.map((x) => `${x.path.join(".") || "(root)"}: ${x.message}`).join("; ")}`,
      );
    out.push(entry.data);
  }
  return out;
}

/** Failed attempts recorded in a ledger prefix: (actor, call index) → attempt → error text. */
export function recordedFailures(ledgerLines: readonly string[]): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  for (const line of ledgerLines) {
    if (!line.includes('"llm_call"')) continue;
    const e = JSON.parse(line) as {
      type: string;
      actor: string;
      call_index: number;
      attempt: number;
      status: string;
      error?: string;
    };
    if (e.type !== "llm_call" || e.status !== "error") continue;
    const k = key(e.actor, e.call_index);
    const m = out.get(k) ?? new Map<number, string>();
    out.set(k, m);
    m.set(e.attempt, e.error ?? "");
  }
  return out;
}

/**
 * The model a run talks to: it logs every successful exchange to `<runDir>/llm.jsonl` in the cassette
 * format, and on resume replays the run's own record. A request is answered, per (actor, call
 * index, attempt): by the failure the recorded ledger holds for that attempt, else by the logged
 * response (its request hash must match: a mismatch means the run diverged), else by the live model,
 * whose reply is appended to the log. Failed attempts are not logged (the ledger holds them).
 */
export class LoggedModel implements Model {
  readonly name: string;
  readonly endpoint: string | undefined;
  private readonly logged = new Map<string, LlmLogEntry>();
  private readonly attempts = new Map<string, number>();
  private fd: number | null = null;
  private background: BackgroundFsync | null = null;

  constructor(
    private readonly inner: Model,
    readonly path: string,
    /** the price-table key calls are billed under (written as the entry's `model`) */
    private readonly priceKey: string,
    recorded: readonly LlmLogEntry[] = [],
    private readonly failures: Map<string, Map<number, string>> = new Map(),
    /** the run's secrets: redacted in the log, restored in replayed replies */
    private readonly redactor: Redactor | null = null,
  ) {
    this.name = inner.name;
    this.endpoint = inner.endpoint;
    for (const e of recorded)
      if (!this.logged.has(key(e.actor, e.call_index))) this.logged.set(key(e.actor, e.call_index), e);
  }

  /** true while a call for (actor, index) would be answered from the record (retry pacing is skipped then). */
  isRecorded(ctx: CallContext): boolean {
    const k = key(ctx.actor, ctx.callIndex);
    return this.logged.has(k) || (this.failures.get(k)?.size ?? 0) > 0;
  }

  async generate(req: GenerateRequest, ctx: CallContext): Promise<GenerateResponse> {
    const k = key(ctx.actor, ctx.callIndex);
    const attempt = (this.attempts.get(k) ?? 0) + 1;
    this.attempts.set(k, attempt);
    const failed = this.failures.get(k)?.get(attempt);
    if (failed !== undefined) throw modelErrorFromText(failed);
    const hash = requestHash(req);
    const rec = this.logged.get(k);
    if (rec) {
      if (rec.request_hash !== hash)
        throw new Error(
          `${this.path}: the resumed run diverged at actor "${ctx.actor}" call ${ctx.callIndex}: recorded request hash ${rec.request_hash}, now ${hash}`,
        );
      return this.redactor?.size ? JSON.parse(this.redactor.restore(JSON.stringify(rec.response))) : rec.response;
    }
    const res = await this.inner.generate(req, ctx);
    const response: GenerateResponse = {
      content: res.content,
      tool_calls: res.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      usage: {
        input_tokens: res.usage.input_tokens,
        cached_input_tokens: res.usage.cached_input_tokens,
        output_tokens: res.usage.output_tokens,
      },
      ...(res.provider_cost_usd !== undefined ? { provider_cost_usd: res.provider_cost_usd } : {}),
      ...(res.finish_reason !== undefined ? { finish_reason: res.finish_reason } : {}),
    };
    const entry: LlmLogEntry = {
      actor: ctx.actor,
      call_index: ctx.callIndex,
      model: this.priceKey,
      request_hash: hash,
      response,
    };
    this.fd ??= openSync(this.path, "a");
    const line = JSON.stringify(entry);
    writeSync(this.fd, `${this.redactor ? this.redactor.redact(line) : line}\n`);
    // a paid reply is durable soon after it is written (beside the run, like the ledger's settlement
    // fsyncs), so a machine crash does not leave ledgered calls whose replies a resume cannot find
    this.background ??= new BackgroundFsync(this.path);
    this.background.request();
    return response;
  }

  /** fsyncs started and completed after live replies so far */
  get syncs(): { requested: number; completed: number } {
    return this.background?.counts ?? { requested: 0, completed: 0 };
  }

  /** fsyncs what was written, so a closed llm.jsonl is wholly on disk (as a closed ledger is) */
  close(): void {
    if (this.fd !== null) {
      fsyncSync(this.fd);
      closeSync(this.fd);
    }
    this.fd = null;
    this.background?.close();
    this.background = null;
  }
}
