/**
 * Cassettes: record any real run's model traffic, replay it byte-reproducibly.
 *
 * File format (JSONL, one line per successful call, appended with a synchronous write):
 *   {"actor":"agent","call_index":0,"model":"openai:gpt-4.1-mini","request_hash":"<sha256>","response":{...}}
 * `request_hash` = sha256 of the canonical JSON (sorted keys, undefined dropped) of the
 * GenerateRequest. Replay is keyed by (actor, call index); the request's hash must equal the
 * recorded one, otherwise `CassetteMismatchError` (a missing entry is a mismatch too). Failed
 * attempts are not recorded: under retries, the same (actor, index) is asked again and only the
 * success is written. A torn last line (a crash mid-append) is dropped on load.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../common/canonical-json.js";
import type { CallContext, GenerateRequest, GenerateResponse, Model } from "./model.js";

export function requestHash(req: GenerateRequest): string {
  return sha256Hex(canonicalJson(req));
}

const toolCallSchema = z.strictObject({ id: z.string(), name: z.string(), arguments: z.string() });
const responseSchema = z.strictObject({
  content: z.string().nullable(),
  tool_calls: z.array(toolCallSchema),
  usage: z.strictObject({
    input_tokens: z.number().int().nonnegative(),
    cached_input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
  }),
  provider_cost_usd: z.number().optional(),
  finish_reason: z.string().optional(),
});
export const CassetteEntrySchema = z.strictObject({
  actor: z.string().min(1),
  call_index: z.number().int().nonnegative(),
  model: z.string().regex(/^[a-z][a-z0-9-]*:.+$/),
  request_hash: z.string().regex(/^[0-9a-f]{64}$/),
  response: responseSchema,
});
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>;

export class CassetteMismatchError extends Error {
  constructor(
    readonly file: string,
    readonly actor: string,
    readonly callIndex: number,
    /** the recorded hash, or null when the cassette has no entry for (actor, index) */
    readonly expectedHash: string | null,
    readonly actualHash: string,
  ) {
    super(
      expectedHash === null
        ? `cassette ${file}: no recorded call for actor "${actor}" call index ${callIndex} (request hash ${actualHash}); the run asked for more calls than were recorded`
        : `cassette ${file}: request mismatch for actor "${actor}" call index ${callIndex}: recorded hash ${expectedHash}, this request hashes to ${actualHash}; the run diverged from the recording`,
    );
    this.name = "CassetteMismatchError";
  }
}

/** Appends every successful call of the wrapped model to a cassette file. */
export class CassetteRecorder {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  /**
   * @param recordedAs the model name stored in each line (the price key on replay); default the
   *   model's name, or a replayed cassette's own recorded model
   */
  wrap(model: Model, recordedAs: string = model instanceof CassetteModel ? model.recordedModel : model.name): Model {
    const path = this.path;
    return {
      name: model.name,
      async generate(req: GenerateRequest, ctx: CallContext): Promise<GenerateResponse> {
        const response = await model.generate(req, ctx);
        const entry: CassetteEntry = {
          actor: ctx.actor,
          call_index: ctx.callIndex,
          model: recordedAs,
          request_hash: requestHash(req),
          response,
        };
        appendFileSync(path, `${JSON.stringify(entry)}\n`);
        return response;
      },
    };
  }
}

const key = (actor: string, index: number) => `${index}\u0000${actor}`;

/** Replays a cassette. Its name is `cassette:<file>`; it is priced as `recordedModel`. */
export class CassetteModel implements Model {
  readonly name: string;

  private constructor(
    readonly path: string,
    readonly recordedModel: string,
    private readonly entries: Map<string, { hash: string; json: string }>,
  ) {
    this.name = `cassette:${path}`;
  }

  static load(path: string): CassetteModel {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new Error(`cannot read cassette ${path}: ${(err as Error).message}`);
    }
    const lines = text.split("\n");
    const torn = !text.endsWith("\n") && text !== "";
    const entries = new Map<string, { hash: string; json: string }>();
    let model: string | null = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.trim() === "") continue;
      const isLast = i === lines.length - 1;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        if (isLast && torn) break; // a torn last line: dropped
        throw new Error(`cassette ${path}:${i + 1}: not valid JSON`);
      }
      const parsed = CassetteEntrySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(
          `cassette ${path}:${i + 1}: ${issue?.path.map(String).join(".") ?? ""}: ${issue?.message ?? ""}`,
        );
      }
      const e = parsed.data;
      if (model === null) model = e.model;
      else if (e.model !== model) {
        throw new Error(
          `cassette ${path}:${i + 1}: model ${e.model} differs from ${model}; a cassette holds one model`,
        );
      }
      const k = key(e.actor, e.call_index);
      const json = JSON.stringify(e.response);
      const prior = entries.get(k);
      if (prior && (prior.hash !== e.request_hash || prior.json !== json)) {
        throw new Error(
          `cassette ${path}:${i + 1}: actor "${e.actor}" call index ${e.call_index} is recorded twice with different contents`,
        );
      }
      if (!prior) entries.set(k, { hash: e.request_hash, json });
    }
    if (model === null) throw new Error(`cassette ${path} has no entries`);
    return new CassetteModel(path, model, entries);
  }

  /** Number of recorded calls. */
  get size(): number {
    return this.entries.size;
  }

  async generate(req: GenerateRequest, ctx: CallContext): Promise<GenerateResponse> {
    const actual = requestHash(req);
    const e = this.entries.get(key(ctx.actor, ctx.callIndex));
    if (!e) throw new CassetteMismatchError(this.path, ctx.actor, ctx.callIndex, null, actual);
    if (e.hash !== actual) throw new CassetteMismatchError(this.path, ctx.actor, ctx.callIndex, e.hash, actual);
    return JSON.parse(e.json) as GenerateResponse;
  }
}
