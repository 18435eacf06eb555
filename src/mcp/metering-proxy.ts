import { appendFileSync } from "node:fs";
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { z } from "zod";
import { closingReply } from "./closing-reply.js";
import type { MeteredCall, MeteredUsage, ModelCallSlot, OutsideAgent } from "./external-actor.js";

/** The wire protocol of the run's upstream model. */
export type UpstreamProtocol = "openai" | "anthropic";

/** The provider the proxy forwards to (resolved by the caller from the run config). */
export interface Upstream {
  protocol: UpstreamProtocol;
  /** OpenAI-compatible: the base URL with its `/v1` (paths `/chat/completions`, `/responses` appended); Anthropic: without it (`/v1/messages`) */
  baseURL: string;
  apiKey: string | undefined;
  /** the model id sent on the wire (replaces whatever model the app names) */
  model: string;
  /** the price-table key the calls are billed and ledgered under (`provider:model`) */
  priceKey: string;
}

export interface MeteringProxyOptions {
  upstream: Upstream;
  /** USD cost of one call with the reported usage (the run's price table) */
  cost: (u: MeteredUsage) => number;
  /** the key the app must present (`Authorization: Bearer <token>` or `x-api-key: <token>`) */
  token: string;
  /** 0 (default): any free port */
  port?: number;
  /** wall-clock cap of one upstream exchange, ms (default 600,000) */
  timeoutMs?: number;
}

export interface MeteringProxy {
  port: number;
  /** `http://127.0.0.1:<port>/v1`: OPENAI_BASE_URL for an app */
  openaiBaseURL: string;
  /** `http://127.0.0.1:<port>`: ANTHROPIC_BASE_URL for an app */
  anthropicBaseURL: string;
  close(): Promise<void>;
}

type Endpoint = "/v1/chat/completions" | "/v1/responses" | "/v1/messages";
const ENDPOINTS: Record<Endpoint, UpstreamProtocol> = {
  "/v1/chat/completions": "openai",
  "/v1/responses": "openai",
  "/v1/messages": "anthropic",
};
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const RequestBody = z.looseObject({
  model: z.string().optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
});

/** An error body in the shape of the protocol the app speaks. */
function errorBody(protocol: UpstreamProtocol, status: number, message: string): unknown {
  if (protocol === "openai") {
    const type =
      status === 401
        ? "invalid_api_key"
        : status === 429
          ? "insufficient_quota"
          : status >= 500
            ? "server_error"
            : "invalid_request_error";
    return { error: { message, type, param: null, code: type } };
  }
  const type =
    status === 401
      ? "authentication_error"
      : status === 402
        ? "billing_error"
        : status === 404
          ? "not_found_error"
          : status >= 500
            ? "api_error"
            : "invalid_request_error";
  return { type: "error", error: { type, message } };
}

/** Status of a refusal once the LLM cap or budget is spent: OpenAI's 429 insufficient_quota, Anthropic's 402 billing_error. */
const REFUSAL_STATUS: Record<UpstreamProtocol, number> = { openai: 429, anthropic: 402 };

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);

/** Usage as reported, field by field (a stream reports it in pieces: the latest value of each wins). */
interface UsageParts {
  input?: number;
  cache_read?: number;
  cache_write?: number;
  output?: number;
  cost?: number;
}

function mergeUsage(into: UsageParts, from: UsageParts): void {
  for (const k of Object.keys(from) as (keyof UsageParts)[]) if (from[k] !== undefined) into[k] = from[k];
}

/** The usage object of one reply (or one stream event), in the endpoint's own field names. */
function usageOf(endpoint: Endpoint, u: unknown): UsageParts {
  if (u === null || typeof u !== "object") return {};
  const o = u as Record<string, unknown>;
  const details = (k: string) => (o[k] && typeof o[k] === "object" ? (o[k] as Record<string, unknown>) : {});
  switch (endpoint) {
    case "/v1/chat/completions":
      return {
        input: num(o.prompt_tokens),
        cache_read: num(details("prompt_tokens_details").cached_tokens),
        output: num(o.completion_tokens),
        cost: num(o.cost),
      };
    case "/v1/responses":
      return {
        input: num(o.input_tokens),
        cache_read: num(details("input_tokens_details").cached_tokens),
        output: num(o.output_tokens),
      };
    case "/v1/messages":
      return {
        input: num(o.input_tokens),
        cache_read: num(o.cache_read_input_tokens),
        cache_write: num(o.cache_creation_input_tokens),
        output: num(o.output_tokens),
      };
    default: {
      const never: never = endpoint;
      throw new Error(`unknown endpoint ${String(never)}`);
    }
  }
}

/**
 * Billed usage: OpenAI-style input already includes cached tokens; Anthropic's `input_tokens` excludes
 * cache reads and writes, so input = input + writes + reads and cached = reads (as the in-process provider).
 */
function meteredUsage(endpoint: Endpoint, p: UsageParts): MeteredUsage {
  const read = p.cache_read ?? 0;
  const input = endpoint === "/v1/messages" ? (p.input ?? 0) + (p.cache_write ?? 0) + read : (p.input ?? 0);
  return { input_tokens: input, cached_input_tokens: Math.min(read, input), output_tokens: p.output ?? 0 };
}

/** The usage carried by one parsed stream event, per endpoint. */
function streamEventUsage(endpoint: Endpoint, data: Record<string, unknown>): UsageParts {
  switch (endpoint) {
    case "/v1/chat/completions":
      return usageOf(endpoint, data.usage);
    case "/v1/responses": {
      const r = data.response as Record<string, unknown> | undefined;
      return r && typeof r === "object" ? usageOf(endpoint, r.usage) : {};
    }
    case "/v1/messages": {
      if (data.type === "message_start") {
        const m = data.message as Record<string, unknown> | undefined;
        return m && typeof m === "object" ? usageOf(endpoint, m.usage) : {};
      }
      return data.type === "message_delta" ? usageOf(endpoint, data.usage) : {};
    }
    default: {
      const never: never = endpoint;
      throw new Error(`unknown endpoint ${String(never)}`);
    }
  }
}

/** The `data:` payload of one server-sent event, parsed (null for `[DONE]`, comments and non-JSON). */
function eventData(event: string): Record<string, unknown> | null {
  const data = event
    .split(/\r?\n/)
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).replace(/^ /, ""))
    .join("\n");
  if (data === "" || data === "[DONE]") return null;
  try {
    const v: unknown = JSON.parse(data);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A provider error's message (`error.message` in both protocols), else the body's start. */
function errorMessage(text: string): string {
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof v.error === "string") return v.error;
    if (v.error && typeof v.error.message === "string") return v.error.message;
    if (typeof v.message === "string") return v.message;
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * The metering model proxy of an outside-agent run: OpenAI-compatible (`/v1/chat/completions`,
 * `/v1/responses`) and Anthropic-compatible (`/v1/messages`) endpoints on 127.0.0.1 that forward to
 * the run's upstream model. Every request waits its turn in the outside actor's queue (simulated time
 * frozen), is refused in the protocol's own error shape once the run's LLM cap or budget is spent,
 * and otherwise goes upstream with the run's model id and key; the reported usage is billed by the
 * price table (`llm_call` in the ledger) and the exchange is appended to `llm.jsonl`. Streaming
 * (`stream: true`) is passed through event by event while the usage is read from the stream
 * (chat completions: `stream_options.include_usage` is added, and the usage-only chunk is withheld
 * from an app that did not ask for it). Upstream errors reach the app with their status and body.
 * A request made after the run is over gets `closingReply` (a final answer in the app's protocol,
 * not forwarded, not billed), so an agent loop that asks its model once more ends normally.
 */
export async function serveMeteringProxy(outside: OutsideAgent, o: MeteringProxyOptions): Promise<MeteringProxy> {
  const { upstream } = o;
  const timeoutMs = o.timeoutMs ?? 600_000;
  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const authorized = (req: IncomingMessage) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
    const key = req.headers["x-api-key"];
    return bearer === o.token || key === o.token;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const speaks: UpstreamProtocol =
      path === "/v1/messages" || req.headers["anthropic-version"] ? "anthropic" : "openai";
    const fail = (status: number, message: string) => sendJson(res, status, errorBody(speaks, status, message));
    if (!authorized(req))
      return fail(401, "relive metering proxy: missing or wrong API key (use the key the run gave the app)");
    if (path === "/v1/models" && req.method === "GET") {
      const m = {
        id: upstream.model,
        object: "model",
        type: "model",
        display_name: upstream.model,
        created: 0,
        created_at: "1970-01-01T00:00:00Z",
        owned_by: "relive",
      };
      return sendJson(res, 200, { object: "list", data: [m], has_more: false, first_id: m.id, last_id: m.id });
    }
    if (!(path in ENDPOINTS))
      return fail(
        404,
        `relive metering proxy: no endpoint ${req.method} ${path}; served: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, GET /v1/models`,
      );
    const endpoint = path as Endpoint;
    if (req.method !== "POST") return fail(405, `relive metering proxy: ${path} takes POST`);
    const wants = ENDPOINTS[endpoint];
    if (wants !== upstream.protocol)
      return fail(
        400,
        `relive metering proxy: this run's model ${upstream.priceKey} speaks the ${upstream.protocol === "openai" ? "OpenAI-compatible API (OPENAI_BASE_URL, /v1/chat/completions or /v1/responses)" : "Anthropic API (ANTHROPIC_BASE_URL, /v1/messages)"}; ${path} is not translated`,
      );
    const raw = await readBody(req);
    if (raw === null) return fail(413, `relive metering proxy: request body over ${MAX_BODY_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch (err) {
      return fail(400, `relive metering proxy: the request body is not valid JSON (${(err as Error).message})`);
    }
    const parsed = RequestBody.safeParse(json);
    if (!parsed.success)
      return fail(
        400,
        `relive metering proxy: bad request body: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
      );
    const body = parsed.data;
    const stream = body.stream === true;
    const requestedModel = body.model;
    const withheldUsage = stream && endpoint === "/v1/chat/completions" && body.stream_options?.include_usage !== true;
    const forwarded: Record<string, unknown> = {
      ...body,
      model: upstream.model,
      ...(withheldUsage ? { stream_options: { ...body.stream_options, include_usage: true } } : {}),
    };
    const reply = await outside.modelCall((at) =>
      exchange(at, { endpoint, forwarded, requestedModel, stream, withheldUsage, req, res }),
    );
    switch (reply.kind) {
      case "forwarded":
        return;
      case "refused":
        return fail(REFUSAL_STATUS[wants], `relive: model call refused: ${reply.reason}`);
      case "ended": {
        // the app's loop asks once more after the call that ended the run: close it with a final answer
        const closing = closingReply(endpoint, {
          model: upstream.model,
          reason: reply.reason,
          stream,
          includeUsage: body.stream_options?.include_usage === true,
        });
        if (!res.headersSent) res.writeHead(200, { "content-type": closing.contentType }).end(closing.body);
        return;
      }
      default: {
        const never: never = reply;
        throw new Error(`unknown model-call reply ${JSON.stringify(never)}`);
      }
    }
  };

  /** One upstream exchange, run inside the actor's turn; writes the reply to the app and logs it. Never throws. */
  const exchange = async (
    at: ModelCallSlot,
    x: {
      endpoint: Endpoint;
      forwarded: Record<string, unknown>;
      requestedModel: string | undefined;
      stream: boolean;
      withheldUsage: boolean;
      req: IncomingMessage;
      res: ServerResponse;
    },
  ): Promise<MeteredCall> => {
    const { endpoint, res } = x;
    const url =
      upstream.protocol === "openai"
        ? `${upstream.baseURL.replace(/\/+$/, "")}${endpoint.slice(3)}`
        : `${upstream.baseURL.replace(/\/+$/, "")}${endpoint}`;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (upstream.protocol === "openai") {
      if (upstream.apiKey) headers.authorization = `Bearer ${upstream.apiKey}`;
    } else {
      if (upstream.apiKey) headers["x-api-key"] = upstream.apiKey;
      headers["anthropic-version"] = String(x.req.headers["anthropic-version"] ?? "2023-06-01");
      const beta = x.req.headers["anthropic-beta"];
      if (beta) headers["anthropic-beta"] = String(beta);
    }
    const log = (entry: Record<string, unknown>) => {
      const line = JSON.stringify({
        kind: "proxy_exchange",
        actor: at.actor,
        call_index: at.callIndex,
        model: upstream.priceKey,
        endpoint,
        requested_model: x.requestedModel ?? null,
        stream: x.stream,
        request: x.forwarded,
        ...entry,
      });
      appendFileSync(join(at.runDir, "llm.jsonl"), `${at.secrets.redact(line)}\n`);
    };
    const failed = (error: string): MeteredCall => ({
      ok: false,
      model: upstream.priceKey,
      usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 },
      cost_usd: 0,
      error,
    });
    const billed = (parts: UsageParts): MeteredCall => {
      const usage = meteredUsage(endpoint, parts);
      return {
        ok: true,
        model: upstream.priceKey,
        usage,
        cost_usd: o.cost(usage),
        ...(parts.cost !== undefined ? { provider_cost_usd: parts.cost } : {}),
      };
    };
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    try {
      let up: Response;
      try {
        up = await fetch(url, { method: "POST", headers, body: JSON.stringify(x.forwarded), signal: ac.signal });
      } catch (err) {
        const why = `network: ${upstream.priceKey} at ${upstream.baseURL}: ${(err as Error).message}`;
        log({ status: null, error: why });
        sendJson(res, 502, errorBody(upstream.protocol, 502, `relive metering proxy: upstream unreachable (${why})`));
        return failed(why);
      }
      const contentType = up.headers.get("content-type") ?? "application/json";
      if (!up.ok || !x.stream || !up.body) {
        const text = await up.text();
        const keep: Record<string, string> = { "content-type": contentType };
        for (const h of ["retry-after", "retry-after-ms", "x-request-id", "request-id"]) {
          const v = up.headers.get(h);
          if (v !== null) keep[h] = v;
        }
        if (!res.headersSent) res.writeHead(up.status, keep).end(text);
        let response: unknown = text;
        try {
          response = JSON.parse(text);
        } catch {
          // logged as text
        }
        if (!up.ok) {
          const why = `HTTP ${up.status}: ${errorMessage(text)}`;
          log({ status: up.status, error: why, response });
          return failed(why);
        }
        const usage =
          response && typeof response === "object" ? usageOf(endpoint, (response as { usage?: unknown }).usage) : {};
        const call = billed(usage);
        log({ status: up.status, response, usage: call.usage, cost_usd: call.cost_usd });
        return call;
      }
      // a stream: pass every event through as it comes, reading the usage on the way
      if (!res.headersSent)
        res.writeHead(up.status, {
          "content-type": contentType,
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
      const events: string[] = [];
      const parts: UsageParts = {};
      const decoder = new TextDecoder();
      let buf = "";
      const emit = (event: string) => {
        events.push(event);
        const data = eventData(event);
        if (data) mergeUsage(parts, streamEventUsage(endpoint, data));
        const usageOnly =
          x.withheldUsage && data !== null && Array.isArray(data.choices) && data.choices.length === 0 && !!data.usage;
        if (!usageOnly && !res.writableEnded && !res.destroyed) res.write(`${event}\n\n`);
      };
      try {
        for await (const chunk of up.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          for (let m = /\r?\n\r?\n/.exec(buf); m; m = /\r?\n\r?\n/.exec(buf)) {
            emit(buf.slice(0, m.index));
            buf = buf.slice(m.index + m[0].length);
          }
        }
        buf += decoder.decode();
        if (buf.trim() !== "") emit(buf);
      } catch (err) {
        const why = `network: the stream from ${upstream.priceKey} broke: ${(err as Error).message}`;
        log({ status: up.status, error: why, events });
        res.end();
        return failed(why);
      }
      res.end();
      const call = billed(parts);
      log({ status: up.status, events, usage: call.usage, cost_usd: call.cost_usd });
      return call;
    } finally {
      clearTimeout(timer);
    }
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, errorBody(upstream.protocol, 500, `relive metering proxy: ${(err as Error).message}`));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(o.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    openaiBaseURL: `http://127.0.0.1:${port}/v1`,
    anthropicBaseURL: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
