import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import { CassetteEntrySchema, requestHash } from "../models/cassette.js";
import {
  MODEL_ERROR_KINDS,
  ModelError
} from "../models/model.js";
function attemptErrorText(e) {
  if (e instanceof ModelError) return `${e.kind}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
function modelErrorFromText(text) {
  const i = text.indexOf(": ");
  const kind = i > 0 ? text.slice(0, i) : null;
  if (kind !== null && MODEL_ERROR_KINDS.includes(kind)) return new ModelError(kind, text.slice(i + 2));
  return new ModelError("server", text);
}
const key = (actor, index) => `${actor}\0${index}`;
function readLlmLog(path, o = {}) {
  if (!existsSync(path)) return [];
  const buf = readFileSync(path);
  const end = buf.lastIndexOf(10) + 1;
  if (o.repair && end < buf.length) truncateSync(path, end);
  const text = buf.subarray(0, end).toString("utf8");
  const lines = text.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    let raw;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      if (i === lines.length - 1) break;
      throw new Error(`${path}:${i + 1}: not valid JSON (${err.message})`);
    }
    const entry = CassetteEntrySchema.safeParse(raw);
    if (!entry.success)
      throw new Error(
        `${path}:${i + 1}: not an llm.jsonl entry: ${entry.error.issues.map((x) => `${x.path.join(".") || "(root)"}: ${x.message}`).join("; ")}`
      );
    out.push(entry.data);
  }
  return out;
}
function recordedFailures(ledgerLines) {
  const out = /* @__PURE__ */ new Map();
  for (const line of ledgerLines) {
    if (!line.includes('"llm_call"')) continue;
    const e = JSON.parse(line);
    if (e.type !== "llm_call" || e.status !== "error") continue;
    const k = key(e.actor, e.call_index);
    const m = out.get(k) ?? /* @__PURE__ */ new Map();
    out.set(k, m);
    m.set(e.attempt, e.error ?? "");
  }
  return out;
}
class LoggedModel {
  constructor(inner, path, priceKey, recorded = [], failures = /* @__PURE__ */ new Map(), redactor = null) {
    this.inner = inner;
    this.path = path;
    this.priceKey = priceKey;
    this.failures = failures;
    this.redactor = redactor;
    this.name = inner.name;
    this.endpoint = inner.endpoint;
    for (const e of recorded)
      if (!this.logged.has(key(e.actor, e.call_index))) this.logged.set(key(e.actor, e.call_index), e);
  }
  inner;
  path;
  priceKey;
  failures;
  redactor;
  name;
  endpoint;
  logged = /* @__PURE__ */ new Map();
  attempts = /* @__PURE__ */ new Map();
  fd = null;
  /** true while a call for (actor, index) would be answered from the record (retry pacing is skipped then). */
  isRecorded(ctx) {
    const k = key(ctx.actor, ctx.callIndex);
    return this.logged.has(k) || (this.failures.get(k)?.size ?? 0) > 0;
  }
  async generate(req, ctx) {
    const k = key(ctx.actor, ctx.callIndex);
    const attempt = (this.attempts.get(k) ?? 0) + 1;
    this.attempts.set(k, attempt);
    const failed = this.failures.get(k)?.get(attempt);
    if (failed !== void 0) throw modelErrorFromText(failed);
    const hash = requestHash(req);
    const rec = this.logged.get(k);
    if (rec) {
      if (rec.request_hash !== hash)
        throw new Error(
          `${this.path}: the resumed run diverged at actor "${ctx.actor}" call ${ctx.callIndex}: recorded request hash ${rec.request_hash}, now ${hash}`
        );
      return this.redactor?.size ? JSON.parse(this.redactor.restore(JSON.stringify(rec.response))) : rec.response;
    }
    const res = await this.inner.generate(req, ctx);
    const response = {
      content: res.content,
      tool_calls: res.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      usage: {
        input_tokens: res.usage.input_tokens,
        cached_input_tokens: res.usage.cached_input_tokens,
        output_tokens: res.usage.output_tokens
      },
      ...res.provider_cost_usd !== void 0 ? { provider_cost_usd: res.provider_cost_usd } : {},
      ...res.finish_reason !== void 0 ? { finish_reason: res.finish_reason } : {}
    };
    const entry = {
      actor: ctx.actor,
      call_index: ctx.callIndex,
      model: this.priceKey,
      request_hash: hash,
      response
    };
    this.fd ??= openSync(this.path, "a");
    const line = JSON.stringify(entry);
    writeSync(this.fd, `${this.redactor ? this.redactor.redact(line) : line}
`);
    return response;
  }
  close() {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
export {
  LoggedModel,
  attemptErrorText,
  modelErrorFromText,
  readLlmLog,
  recordedFailures
};
//# sourceMappingURL=llm-log.js.map
