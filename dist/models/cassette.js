import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../common/canonical-json.js";
function requestHash(req) {
  return sha256Hex(canonicalJson(req));
}
const toolCallSchema = z.strictObject({ id: z.string(), name: z.string(), arguments: z.string() });
const responseSchema = z.strictObject({
  content: z.string().nullable(),
  tool_calls: z.array(toolCallSchema),
  usage: z.strictObject({
    input_tokens: z.number().int().nonnegative(),
    cached_input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative()
  }),
  provider_cost_usd: z.number().optional(),
  finish_reason: z.string().optional()
});
const CassetteEntrySchema = z.strictObject({
  actor: z.string().min(1),
  call_index: z.number().int().nonnegative(),
  model: z.string().regex(/^[a-z][a-z0-9-]*:.+$/),
  request_hash: z.string().regex(/^[0-9a-f]{64}$/),
  response: responseSchema
});
class CassetteMismatchError extends Error {
  constructor(file, actor, callIndex, expectedHash, actualHash) {
    super(
      expectedHash === null ? `cassette ${file}: no recorded call for actor "${actor}" call index ${callIndex} (request hash ${actualHash}); the run asked for more calls than were recorded` : `cassette ${file}: request mismatch for actor "${actor}" call index ${callIndex}: recorded hash ${expectedHash}, this request hashes to ${actualHash}; the run diverged from the recording`
    );
    this.file = file;
    this.actor = actor;
    this.callIndex = callIndex;
    this.expectedHash = expectedHash;
    this.actualHash = actualHash;
    this.name = "CassetteMismatchError";
  }
  file;
  actor;
  callIndex;
  expectedHash;
  actualHash;
}
class CassetteRecorder {
  constructor(path) {
    this.path = path;
    mkdirSync(dirname(path), { recursive: true });
  }
  path;
  /**
   * @param recordedAs the model name stored in each line (the price key on replay); default the
   *   model's name, or a replayed cassette's own recorded model
   */
  wrap(model, recordedAs = model instanceof CassetteModel ? model.recordedModel : model.name) {
    const path = this.path;
    return {
      name: model.name,
      async generate(req, ctx) {
        const response = await model.generate(req, ctx);
        const entry = {
          actor: ctx.actor,
          call_index: ctx.callIndex,
          model: recordedAs,
          request_hash: requestHash(req),
          response
        };
        appendFileSync(path, `${JSON.stringify(entry)}
`);
        return response;
      }
    };
  }
}
const key = (actor, index) => `${index}\0${actor}`;
class CassetteModel {
  constructor(path, recordedModel, entries) {
    this.path = path;
    this.recordedModel = recordedModel;
    this.entries = entries;
    this.name = `cassette:${path}`;
  }
  path;
  recordedModel;
  entries;
  name;
  static load(path) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new Error(`cannot read cassette ${path}: ${err.message}`);
    }
    const lines = text.split("\n");
    const torn = !text.endsWith("\n") && text !== "";
    const entries = /* @__PURE__ */ new Map();
    let model = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "") continue;
      const isLast = i === lines.length - 1;
      let raw;
      try {
        raw = JSON.parse(line);
      } catch {
        if (isLast && torn) break;
        throw new Error(`cassette ${path}:${i + 1}: not valid JSON`);
      }
      const parsed = CassetteEntrySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(
          `cassette ${path}:${i + 1}: ${issue?.path.map(String).join(".") ?? ""}: ${issue?.message ?? ""}`
        );
      }
      const e = parsed.data;
      if (model === null) model = e.model;
      else if (e.model !== model) {
        throw new Error(
          `cassette ${path}:${i + 1}: model ${e.model} differs from ${model}; a cassette holds one model`
        );
      }
      const k = key(e.actor, e.call_index);
      const json = JSON.stringify(e.response);
      const prior = entries.get(k);
      if (prior && (prior.hash !== e.request_hash || prior.json !== json)) {
        throw new Error(
          `cassette ${path}:${i + 1}: actor "${e.actor}" call index ${e.call_index} is recorded twice with different contents`
        );
      }
      if (!prior) entries.set(k, { hash: e.request_hash, json });
    }
    if (model === null) throw new Error(`cassette ${path} has no entries`);
    return new CassetteModel(path, model, entries);
  }
  /** Number of recorded calls. */
  get size() {
    return this.entries.size;
  }
  async generate(req, ctx) {
    const actual = requestHash(req);
    const e = this.entries.get(key(ctx.actor, ctx.callIndex));
    if (!e) throw new CassetteMismatchError(this.path, ctx.actor, ctx.callIndex, null, actual);
    if (e.hash !== actual) throw new CassetteMismatchError(this.path, ctx.actor, ctx.callIndex, e.hash, actual);
    return JSON.parse(e.json);
  }
}
export {
  CassetteEntrySchema,
  CassetteMismatchError,
  CassetteModel,
  CassetteRecorder,
  requestHash
};
//# sourceMappingURL=cassette.js.map
