import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback imitation of the two provider APIs, written for the metering-proxy tests from the
 * public API references, with quirks real servers have:
 * - OpenAI chat completions: usage with `prompt_tokens_details.cached_tokens`; streaming sends the
 *   usage-only final chunk (`choices: []`) ONLY when `stream_options.include_usage` is true, ends with
 *   `data: [DONE]`, uses CRLF line ends and splits its writes mid-event.
 * - OpenAI Responses: usage in `input_tokens_details.cached_tokens`; streaming puts it in
 *   `response.completed` (named `event:` lines).
 * - Anthropic messages: `input_tokens` excludes cache reads and writes; streaming reports input in
 *   `message_start` and the final output count in `message_delta`, with `ping` events between.
 * - Errors in each API's own shape (`{error:{message,type,code}}` / `{type:"error",error:{type,message}}`).
 * Each reply's usage is set by the test (`next`), every request is recorded.
 */
export interface ImitationUsage {
  input: number;
  cached: number;
  /** Anthropic only: cache writes (counted in the billed input) */
  cacheWrite?: number;
  output: number;
}

export interface Recorded {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export interface ProviderImitation {
  url: string;
  requests: Recorded[];
  /** what the next replies do, in order (default: a text reply with 10/0/5 tokens) */
  next: ({ usage: ImitationUsage; text?: string } | { status: number; message: string })[];
  close(): Promise<void>;
}

const KEY = "sk-upstream-test";
export const IMITATION_KEY = KEY;

export async function startProviderImitation(): Promise<ProviderImitation> {
  const requests: Recorded[] = [];
  const next: ProviderImitation["next"] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c.toString();
    });
    req.on("end", () => {
      const path = req.url ?? "";
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ path, headers: req.headers, body });
      const anthropic = path === "/v1/messages";
      const authOk = anthropic ? req.headers["x-api-key"] === KEY : req.headers.authorization === `Bearer ${KEY}`;
      const step = next.shift() ?? { usage: { input: 10, cached: 0, output: 5 }, text: "ok" };
      const error = (status: number, message: string) => {
        res.writeHead(status, {
          "content-type": "application/json",
          ...(status === 429 ? { "retry-after": "7" } : {}),
        });
        res.end(
          JSON.stringify(
            anthropic
              ? {
                  type: "error",
                  error: { type: status === 429 ? "rate_limit_error" : "invalid_request_error", message },
                }
              : { error: { message, type: "invalid_request_error", param: null, code: "bad_thing" } },
          ),
        );
      };
      if (!authOk) return error(401, "bad key");
      if ("status" in step) return error(step.status, step.message);
      const u = step.usage;
      const text = step.text ?? "ok";
      const stream = body.stream === true;
      if (path === "/v1/chat/completions") {
        const usage = {
          prompt_tokens: u.input,
          completion_tokens: u.output,
          total_tokens: u.input + u.output,
          prompt_tokens_details: { cached_tokens: u.cached },
        };
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(
            JSON.stringify({
              id: "chatcmpl-1",
              object: "chat.completion",
              created: 1,
              model: body.model,
              choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
              usage,
            }),
          );
        }
        const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\r\n\r\n`;
        const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: body.model };
        let out =
          chunk({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: text.slice(0, 1) } }] }) +
          chunk({ ...base, choices: [{ index: 0, delta: { content: text.slice(1) }, finish_reason: "stop" }] });
        const opts = body.stream_options as { include_usage?: boolean } | undefined;
        if (opts?.include_usage) out += chunk({ ...base, choices: [], usage });
        out += "data: [DONE]\r\n\r\n";
        return writeSplit(res, out);
      }
      if (path === "/v1/responses") {
        const usage = {
          input_tokens: u.input,
          input_tokens_details: { cached_tokens: u.cached },
          output_tokens: u.output,
          total_tokens: u.input + u.output,
        };
        const response = {
          id: "resp_1",
          object: "response",
          status: "completed",
          model: body.model,
          output: [
            {
              type: "message",
              id: "msg_1",
              role: "assistant",
              content: [{ type: "output_text", text, annotations: [] }],
            },
          ],
          usage,
        };
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify(response));
        }
        const ev = (type: string, o: unknown) =>
          `event: ${type}\ndata: ${JSON.stringify({ type, ...(o as object) })}\n\n`;
        return writeSplit(
          res,
          ev("response.created", { response: { ...response, status: "in_progress", usage: null } }) +
            ev("response.output_text.delta", { delta: text }) +
            ev("response.completed", { response }),
        );
      }
      if (path === "/v1/messages") {
        const usage = {
          input_tokens: u.input - u.cached - (u.cacheWrite ?? 0),
          cache_creation_input_tokens: u.cacheWrite ?? 0,
          cache_read_input_tokens: u.cached,
          output_tokens: u.output,
        };
        const message = {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: body.model,
          content: [{ type: "text", text }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage,
        };
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify(message));
        }
        const ev = (type: string, o: unknown) =>
          `event: ${type}\ndata: ${JSON.stringify({ type, ...(o as object) })}\n\n`;
        return writeSplit(
          res,
          ev("message_start", {
            message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
          }) +
            ev("ping", {}) +
            ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
            ev("content_block_delta", { index: 0, delta: { type: "text_delta", text } }) +
            ev("content_block_stop", { index: 0 }) +
            ev("message_delta", {
              delta: { stop_reason: "end_turn", stop_sequence: null },
              usage: { output_tokens: u.output },
            }) +
            ev("message_stop", {}),
        );
      }
      error(404, `no route ${path}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Writes a stream in uneven pieces (cutting events apart) so a parser must buffer across chunks. */
function writeSplit(res: import("node:http").ServerResponse, text: string): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const buf = Buffer.from(text);
  let i = 0;
  let n = 7;
  const step = () => {
    if (i >= buf.length) return res.end();
    res.write(buf.subarray(i, i + n));
    i += n;
    n = n === 7 ? 23 : 7;
    setImmediate(step);
  };
  step();
}
