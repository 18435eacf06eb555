/**
 * A real OpenAI-compatible HTTP server for tests (loopback only, 127.0.0.1 port 0).
 *
 * It answers POST /v1/chat/completions (non-streaming) with real OpenAI response shapes, and POST
 * /v1/responses (non-streaming; text and tool-call replies) with Responses API shapes. Replies
 * are scripted by the test: `enqueue(...)` queues replies consumed in order, or `respond(fn)` sets
 * a responder called for every request instead. With neither, a request gets a 500 whose message
 * says the script is exhausted.
 *
 * Token accounting (deterministic):
 * - The prompt is serialized as one line per tool (`JSON.stringify({type:"function",function})`)
 *   followed by one line per message (`JSON.stringify(message)`), in request order; tools first,
 *   so an unchanged tool list plus system prompt form a stable prefix. The serialization is
 *   tokenized with js-tiktoken cl100k_base; `prompt_tokens` is the token count.
 * - `completion_tokens` is the cl100k token count of the reply's content plus each tool call's
 *   name and arguments.
 * - Prompt caching: let L be the longest common token prefix of this prompt with any earlier
 *   request's prompt (same server). `cached_tokens` = 0 when L < 1024, else L rounded down to a
 *   multiple of 128 (OpenAI's published granularity). It is always ≤ prompt_tokens. Both numbers
 *   are kept incrementally (test/support/prompt-prefix-index.ts: each distinct line tokenized once,
 *   prompts as a trie of lines), so a long agent run does not re-tokenize its whole context and
 *   compare it with every earlier prompt on every call.
 *
 * Fault kinds: `status` (any HTTP status with an OpenAI-style error body, optional headers such as
 * `retry-after` / `retry-after-ms`), `timeout` (the request is held open and never answered; the
 * client's timeout fires; `close()` destroys held sockets), `empty_choices` (a 200 with
 * `choices: []`), `malformed_tool_json` (a tool call whose arguments are truncated JSON).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { PromptPrefixIndex } from "./prompt-prefix-index.js";

export type ScriptedReply =
  | { kind: "tool_calls"; calls: { name: string; arguments: string | object }[]; content?: string }
  | { kind: "text"; content: string }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "timeout" }
  | { kind: "empty_choices" }
  | { kind: "malformed_tool_json"; name: string };

/** Request bodies are arbitrary JSON that tests inspect freely. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the client sent
export type RequestBody = any;

/** The usage object a reply reported, as sent. */
export interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export interface RecordedRequest {
  body: RequestBody;
  headers: Record<string, string>;
  usage?: ReportedUsage;
}

export interface OpenAITestServer {
  /** http://127.0.0.1:<port>/v1 */
  url: string;
  /** every request received (any path), in arrival order, with the usage its reply reported (in chat field names) */
  requests: RecordedRequest[];
  /** replies are consumed in order; when a responder function is set it is called instead for each request */
  enqueue(...r: ScriptedReply[]): void;
  respond(fn: (body: RequestBody, index: number) => ScriptedReply): void;
  close(): Promise<void>;
}

let encoder: Tiktoken | null = null;
function tokenize(text: string): number[] {
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text);
}

/** Token count as the test server computes it (cl100k_base). */
export function countTestTokens(text: string): number {
  return tokenize(text).length;
}

/** The lines of the serialized prompt: tools first, then messages, one JSON line each. */
export function promptLines(body: { tools?: unknown[]; messages?: unknown[] }): string[] {
  const lines: string[] = [];
  for (const t of body.tools ?? []) lines.push(JSON.stringify(t));
  for (const m of body.messages ?? []) lines.push(JSON.stringify(m));
  return lines;
}

/** The serialized prompt the server tokenizes: its lines joined by "\n". */
export function serializePrompt(body: { tools?: unknown[]; messages?: unknown[] }): string {
  return promptLines(body).join("\n");
}

/** The cache rule: 0 below 1024 common tokens, else the common prefix rounded down to 128. */
export function cachedTokensFor(commonPrefix: number, promptTokens: number): number {
  if (commonPrefix < 1024) return 0;
  return Math.min(promptTokens, Math.floor(commonPrefix / 128) * 128);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function errorBody(status: number, message: string): unknown {
  return { error: { message, type: status === 429 ? "rate_limit_exceeded" : "server_error", code: String(status) } };
}

export async function startOpenAITestServer(): Promise<OpenAITestServer> {
  // Build the tokenizer before listening, so its one-off load never eats into a client's timeout.
  tokenize("");
  const queue: ScriptedReply[] = [];
  let responder: ((body: RequestBody, index: number) => ScriptedReply) | null = null;
  const requests: RecordedRequest[] = [];
  // every prompt so far, for the token counts and the longest common prefix (the cache rule)
  const prompts = new PromptPrefixIndex(tokenize);
  let completionIndex = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `test server error: ${String(err)}`));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    // the launch preflight (GET /models): answered, not recorded among the chat requests
    if (req.method === "GET" && (req.url ?? "").split("?")[0] === "/v1/models") {
      sendJson(res, 200, { object: "list", data: [] });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    let body: RequestBody;
    try {
      body = raw === "" ? null : JSON.parse(raw);
    } catch {
      requests.push({ body: raw, headers });
      sendJson(res, 400, errorBody(400, "request body is not JSON"));
      return;
    }
    const entry: RecordedRequest = { body, headers };
    requests.push(entry);
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "POST" && path === "/v1/responses") return responses(body, entry, res);
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      sendJson(res, 404, errorBody(404, `no route ${req.method} ${path}`));
      return;
    }
    if (body === null || typeof body !== "object" || !Array.isArray(body.messages)) {
      sendJson(res, 400, errorBody(400, "messages must be an array"));
      return;
    }
    const index = completionIndex++;
    const reply = responder ? responder(body, index) : queue.shift();
    if (reply === undefined) {
      sendJson(res, 500, errorBody(500, `test server script exhausted at request ${index}`));
      return;
    }

    const { promptTokens, cached } = promptUsage(promptLines(body));
    const model = typeof body.model === "string" ? body.model : "test-model";

    const complete = (message: Record<string, unknown>, finish: string, outputText: string) => {
      const usage = {
        prompt_tokens: promptTokens,
        completion_tokens: countTestTokens(outputText),
        total_tokens: promptTokens + countTestTokens(outputText),
        prompt_tokens_details: { cached_tokens: cached },
      };
      entry.usage = usage;
      sendJson(res, 200, {
        id: `chatcmpl-test-${index}`,
        object: "chat.completion",
        created: 1_700_000_000 + index,
        model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
        usage: { ...usage, completion_tokens_details: { reasoning_tokens: 0 } },
      });
    };

    switch (reply.kind) {
      case "text":
        complete({ role: "assistant", content: reply.content, refusal: null }, "stop", reply.content);
        return;
      case "tool_calls": {
        const calls = reply.calls.map((c, i) => ({
          id: `call_${index}_${i}`,
          type: "function",
          function: {
            name: c.name,
            arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
          },
        }));
        const out = (reply.content ?? "") + calls.map((c) => c.function.name + c.function.arguments).join("");
        complete(
          { role: "assistant", content: reply.content ?? null, tool_calls: calls, refusal: null },
          "tool_calls",
          out,
        );
        return;
      }
      case "malformed_tool_json": {
        const args = '{"query": "unterminated';
        complete(
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `call_${index}_0`, type: "function", function: { name: reply.name, arguments: args } }],
            refusal: null,
          },
          "tool_calls",
          reply.name + args,
        );
        return;
      }
      case "empty_choices":
        sendJson(res, 200, {
          id: `chatcmpl-test-${index}`,
          object: "chat.completion",
          created: 1_700_000_000 + index,
          model,
          choices: [],
          usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
        });
        return;
      case "status":
        sendJson(
          res,
          reply.status,
          reply.body ?? errorBody(reply.status, `injected status ${reply.status}`),
          reply.headers ?? {},
        );
        return;
      case "timeout":
        // Hold the request open; the client's timeout fires. close() destroys the socket.
        return;
      default: {
        const never: never = reply;
        throw new Error(`unknown scripted reply ${JSON.stringify(never)}`);
      }
    }
  }

  /** The next usage for a prompt (its lines): its tokens and the cached prefix (the same rules for both endpoints). */
  function promptUsage(lines: string[]): { promptTokens: number; cached: number } {
    const { promptTokens, common } = prompts.add(lines);
    return { promptTokens, cached: cachedTokensFor(common, promptTokens) };
  }

  /**
   * POST /v1/responses (non-streaming): the same scripted replies as chat completions, as Responses
   * output items (`function_call` with `call_id` `call_<index>_<i>`, or one `message`), with the usage
   * in Responses field names (`input_tokens_details.cached_tokens`). The prompt counted is the tools,
   * the instructions (as a system message) and the input items, one JSON line each. Only `text`,
   * `tool_calls` and `status` replies are played here.
   */
  function responses(body: RequestBody, entry: RecordedRequest, res: ServerResponse): void {
    if (body === null || typeof body !== "object" || (typeof body.input !== "string" && !Array.isArray(body.input))) {
      sendJson(res, 400, errorBody(400, "input must be a string or an array"));
      return;
    }
    const index = completionIndex++;
    const reply = responder ? responder(body, index) : queue.shift();
    if (reply === undefined) {
      sendJson(res, 500, errorBody(500, `test server script exhausted at request ${index}`));
      return;
    }
    if (reply.kind === "status") {
      sendJson(
        res,
        reply.status,
        reply.body ?? errorBody(reply.status, `injected status ${reply.status}`),
        reply.headers ?? {},
      );
      return;
    }
    if (reply.kind !== "text" && reply.kind !== "tool_calls") {
      sendJson(res, 500, errorBody(500, `test server: a ${reply.kind} reply is not played on /v1/responses`));
      return;
    }
    const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
    const { promptTokens, cached } = promptUsage(
      promptLines({
        tools: body.tools,
        messages: [
          ...(typeof body.instructions === "string" ? [{ role: "system", content: body.instructions }] : []),
          ...input,
        ],
      }),
    );
    const output: Record<string, unknown>[] = [];
    let outputText = "";
    const content = reply.content;
    if (content) {
      output.push({
        type: "message",
        id: `msg_test_${index}`,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: content, annotations: [] }],
      });
      outputText += content;
    }
    if (reply.kind === "tool_calls")
      reply.calls.forEach((c, i) => {
        const args = typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments);
        output.push({
          type: "function_call",
          id: `fc_test_${index}_${i}`,
          call_id: `call_${index}_${i}`,
          name: c.name,
          arguments: args,
          status: "completed",
        });
        outputText += c.name + args;
      });
    const completionTokens = countTestTokens(outputText);
    entry.usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cached },
    };
    sendJson(res, 200, {
      id: `resp_test_${index}`,
      object: "response",
      created_at: 1_700_000_000 + index,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: typeof body.model === "string" ? body.model : "test-model",
      output,
      usage: {
        input_tokens: promptTokens,
        input_tokens_details: { cached_tokens: cached },
        output_tokens: completionTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: promptTokens + completionTokens,
      },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue(...r: ScriptedReply[]) {
      queue.push(...r);
    },
    respond(fn) {
      responder = fn;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
