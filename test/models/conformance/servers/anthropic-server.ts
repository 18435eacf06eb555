/**
 * The Anthropic Messages API as it answers, with prompt caching computed honestly: the prompt is the
 * block sequence tools → system → messages; a request writes the prefixes that end at its
 * `cache_control` breakpoints (of at least `minCacheTokens`, like Anthropic's minimum cacheable
 * length); it reads the longest prefix that an earlier request wrote, up to its own last breakpoint.
 * usage: `cache_read_input_tokens` (read), `cache_creation_input_tokens` (from the read point to the
 * last breakpoint), `input_tokens` (after the last breakpoint). A block's tokens are its JSON's
 * length / 4. Errors as Anthropic sends them: 401 authentication_error, 404 not_found_error
 * ("model: x"), 400 "prompt is too long: N tokens > M maximum"; `stop_reason: "max_tokens"` when cut.
 */
import { createHash } from "node:crypto";
import type { Brain, Conversation } from "../brain.js";
import { type BilledReply, listen, tokens } from "./http.js";

export interface AnthropicServerOptions {
  brain: Brain;
  models: string[];
  apiKey: string;
  truncateAt?: readonly number[];
  /** refuse prompts longer than this many tokens (default 200,000) */
  contextTokens?: number;
  minCacheTokens?: number;
}

export interface AnthropicServer {
  /** the base URL (ANTHROPIC_BASE_URL) */
  url: string;
  billed: BilledReply[];
  requests: Record<string, unknown>[];
  models: string[];
  close(): Promise<void>;
}

type Block = Record<string, unknown> & { type?: string; cache_control?: unknown };

function conversationOf(messages: { role: string; content: string | Block[] }[]): Conversation {
  const out: Conversation["messages"] = [];
  for (const m of messages) {
    const blocks: Block[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === "text") out.push({ role: m.role === "assistant" ? "assistant" : "user", content: String(b.text) });
      else if (b.type === "tool_result")
        out.push({
          role: "tool",
          tool_call_id: String(b.tool_use_id),
          content:
            typeof b.content === "string"
              ? b.content
              : Array.isArray(b.content)
                ? (b.content as Block[]).map((x) => String(x.text ?? "")).join("")
                : "",
        });
      else if (b.type === "tool_use") out.push({ role: "assistant", content: "" });
    }
  }
  return { messages: out };
}

const strip = (b: Block) => {
  const { cache_control: _c, ...rest } = b;
  return rest;
};

export async function startAnthropicServer(o: AnthropicServerOptions): Promise<AnthropicServer> {
  const billed: BilledReply[] = [];
  const requests: Record<string, unknown>[] = [];
  const written = new Set<string>();
  const minCache = o.minCacheTokens ?? 1024;
  const limit = o.contextTokens ?? 200_000;
  const models = [...o.models];
  let index = 0;
  const err = (status: number, type: string, message: string) => ({
    status,
    body: { type: "error", error: { type, message } },
  });
  const http = await listen((x) => {
    // the key arrives as x-api-key or (this SDK version) as a Bearer token
    if (x.headers["x-api-key"] !== o.apiKey && x.headers.authorization !== `Bearer ${o.apiKey}`)
      return err(401, "authentication_error", "invalid x-api-key");
    if (x.method === "GET" && x.path === "/v1/models")
      return {
        status: 200,
        body: {
          data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-10-01T00:00:00Z" })),
          has_more: false,
          first_id: models[0] ?? null,
          last_id: models.at(-1) ?? null,
        },
      };
    if (x.method !== "POST" || x.path !== "/v1/messages") return err(404, "not_found_error", `no route ${x.path}`);
    const body = x.body as {
      model: string;
      system?: Block[] | string;
      tools?: Block[];
      messages: { role: string; content: string | Block[] }[];
    };
    if (!models.includes(body.model)) return err(404, "not_found_error", `model: ${body.model}`);
    requests.push(body as unknown as Record<string, unknown>);
    // the prompt as a block sequence, in Anthropic's cache order
    const seq: { text: string; bp: boolean }[] = [];
    for (const t of body.tools ?? [])
      seq.push({ text: `tool:${JSON.stringify(strip(t))}`, bp: t.cache_control !== undefined });
    const system =
      typeof body.system === "string" ? [{ type: "text", text: body.system } as Block] : (body.system ?? []);
    for (const b of system) seq.push({ text: `system:${JSON.stringify(strip(b))}`, bp: b.cache_control !== undefined });
    for (const m of body.messages) {
      const blocks: Block[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      blocks.forEach((b, i) => {
        seq.push({
          text: `${i === 0 ? `${m.role}|` : ""}${JSON.stringify(strip(b))}`,
          bp: b.cache_control !== undefined,
        });
      });
    }
    const cum: number[] = [];
    const hashes: string[] = [];
    let h = "";
    let total = 0;
    for (const s of seq) {
      total += tokens(s.text);
      cum.push(total);
      h = createHash("sha256").update(h).update(s.text).digest("hex");
      hashes.push(h);
    }
    if (total > limit)
      return err(400, "invalid_request_error", `prompt is too long: ${total} tokens > ${limit} maximum`);
    const bps = seq.flatMap((s, i) => (s.bp ? [i] : []));
    const lastBp = bps.at(-1) ?? -1;
    let readAt = -1;
    for (let i = lastBp; i >= 0; i--)
      if (written.has(hashes[i]!)) {
        readAt = i;
        break;
      }
    const read = readAt >= 0 ? cum[readAt]! : 0;
    const upToBp = lastBp >= 0 && cum[lastBp]! >= minCache ? cum[lastBp]! : read;
    for (const b of bps) if (cum[b]! >= minCache) written.add(hashes[b]!);
    const i = index++;
    const calls = o.brain(conversationOf(body.messages), i);
    const output = tokens(JSON.stringify(calls));
    const usage = {
      input_tokens: total - Math.max(upToBp, read),
      cache_creation_input_tokens: Math.max(0, upToBp - read),
      cache_read_input_tokens: read,
      output_tokens: output,
    };
    billed.push({ input: total, cached: read, cache_write: usage.cache_creation_input_tokens, output });
    return {
      status: 200,
      body: {
        id: `msg_${i}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
        stop_reason: o.truncateAt?.includes(i) ? "max_tokens" : "tool_use",
        stop_sequence: null,
        usage,
      },
    };
  });
  return { url: http.origin, billed, requests, models, close: http.close };
}
