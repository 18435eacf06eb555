/**
 * What the four OpenAI-compatible conformance servers share: request routing, key and model checks,
 * and the bookkeeping of what was billed. Each style (vllm-server.ts, llamacpp-server.ts,
 * ollama-server.ts, openrouter-server.ts) encodes replies and errors its own way.
 */
import type { Brain, BrainCall } from "../brain.js";
import { type BilledReply, type Exchange, listen, tokens } from "./http.js";
import { conversationOf, promptText } from "./openai-wire.js";

export interface StyleOptions {
  brain: Brain;
  /** the model id the server serves */
  model: string;
  /** a key the server insists on (Bearer); none = any */
  apiKey?: string;
  /** chat request indexes answered with a reply cut off at the output cap */
  truncateAt?: readonly number[];
}

export interface StyleServer {
  /** the base URL clients use (…/v1) */
  url: string;
  billed: BilledReply[];
  chatRequests: Record<string, unknown>[];
  /** the key the server accepts from now on (a fixed key) */
  apiKey: string | undefined;
  close(): Promise<void>;
}

export interface ChatTurn {
  index: number;
  body: Record<string, unknown>;
  calls: BrainCall[];
  truncated: boolean;
  promptTokens: number;
  outputTokens: number;
}

export interface Style {
  /** GET /models body */
  models(model: string): unknown;
  /** an error reply: 401 refused key, 404 unknown model */
  error(kind: "auth" | "model", model: string): { status: number; body: unknown };
  /** a chat reply (or an error) for one turn; `bill` records what it charged */
  reply(turn: ChatTurn, bill: (b: BilledReply) => void): { status: number; body: unknown };
  /** extra routes (OpenRouter's GET /key) */
  route?(x: Exchange, authorised: boolean): { status: number; body: unknown } | null;
  /** an answer given before the model runs (OpenRouter's error-in-200 for an upstream failure) */
  preempt?(index: number): { status: number; body: unknown } | null;
  /** GET /models answers without a key (llama.cpp, OpenRouter); vLLM checks it there too */
  modelsPublic?: boolean;
  /** some servers ignore the requested model name (llama.cpp serves whatever file it loaded) */
  ignoresModelName?: boolean;
}

export async function startStyleServer(style: Style, o: StyleOptions): Promise<StyleServer> {
  const billed: BilledReply[] = [];
  const chatRequests: Record<string, unknown>[] = [];
  let chatIndex = 0;
  const state: { apiKey: string | undefined } = { apiKey: o.apiKey };
  const http = await listen((x) => {
    const authorised = state.apiKey === undefined || x.headers.authorization === `Bearer ${state.apiKey}`;
    const extra = style.route?.(x, authorised);
    if (extra) return extra;
    if (x.method === "GET" && x.path === "/v1/models") {
      if (!authorised && !style.modelsPublic) return style.error("auth", o.model);
      return { status: 200, body: style.models(o.model) };
    }
    if (x.method !== "POST" || x.path !== "/v1/chat/completions")
      return { status: 404, body: { error: { message: `no route ${x.method} ${x.path}` } } };
    if (!authorised) return style.error("auth", o.model);
    const body = x.body as Record<string, unknown>;
    if (!style.ignoresModelName && body.model !== o.model) return style.error("model", String(body.model));
    chatRequests.push(body);
    const index = chatIndex++;
    const pre = style.preempt?.(index);
    if (pre) return pre;
    const truncated = o.truncateAt?.includes(index) ?? false;
    const calls = o.brain(conversationOf(body), index);
    const promptTokens = tokens(promptText(body));
    const outputTokens = tokens(JSON.stringify(calls));
    return style.reply({ index, body, calls, truncated, promptTokens, outputTokens }, (b) => billed.push(b));
  });
  return {
    url: `${http.origin}/v1`,
    billed,
    chatRequests,
    get apiKey() {
      return state.apiKey;
    },
    set apiKey(k: string | undefined) {
      state.apiKey = k;
    },
    close: http.close,
  };
}
