import { createRequire } from "node:module";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import type { ChatMessage, ToolSpec } from "../models/model.js";

let encoder: Tiktoken | null = null;

/**
 * The cl100k_base ranks (a 2 MB table), read on the first count: runs that never count tokens
 * (scripted agents, grid job processes of scripted cells) never load it.
 */
const loadCl100k = (): TiktokenBPE => createRequire(import.meta.url)("js-tiktoken/ranks/cl100k_base") as TiktokenBPE;

/** texts at least this long have their counts remembered (shorter ones cost less to encode than to look up) */
const MEMO_MIN_CHARS = 256;
/** the remembered texts' total length at most (least recently used dropped first) */
const MEMO_MAX_CHARS = 8_000_000;
const memo = new Map<string, number>();
let memoChars = 0;

/**
 * Tokens of `text` in cl100k_base (the encoder loads once per process, about a second). Counts of
 * long texts are remembered: an agent is sent the same tool result again and again (price-check's
 * exchange docs, 6 KB, at every wake), and BPE encoding is the slow part of keeping its transcript.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const remember = text.length >= MEMO_MIN_CHARS;
  if (remember) {
    const hit = memo.get(text);
    if (hit !== undefined) {
      memo.delete(text);
      memo.set(text, hit);
      return hit;
    }
  }
  encoder ??= new Tiktoken(loadCl100k());
  const n = encoder.encode(text).length;
  if (remember && text.length <= MEMO_MAX_CHARS) {
    memo.set(text, n);
    memoChars += text.length;
    for (const old of memo.keys()) {
      if (memoChars <= MEMO_MAX_CHARS) break;
      memo.delete(old);
      memoChars -= old.length;
    }
  }
  return n;
}

/** Per-message framing overhead (role, separators), as in OpenAI's chat token accounting. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Tokens one chat message adds to a request (content, tool calls and framing). */
export function messageTokens(m: ChatMessage): number {
  switch (m.role) {
    case "user":
      return MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
    case "assistant":
      return (
        MESSAGE_OVERHEAD_TOKENS +
        countTokens(m.content ?? "") +
        (m.tool_calls ?? []).reduce((s, c) => s + 3 + countTokens(c.name) + countTokens(c.arguments), 0)
      );
    case "tool":
      return MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
    default: {
      const never: never = m;
      throw new Error(`unknown message ${JSON.stringify(never)}`);
    }
  }
}

/** Tokens of the tool specifications sent with every request. */
export function toolSpecTokens(tools: readonly ToolSpec[]): number {
  return countTokens(JSON.stringify(tools));
}
