/** Decoding of an OpenAI-style chat request into the brain's neutral conversation (each server encodes its own replies). */
import type { Conversation } from "../brain.js";

type Part = { type?: string; text?: string };
const text = (c: unknown): string =>
  typeof c === "string" ? c : Array.isArray(c) ? (c as Part[]).map((p) => p.text ?? "").join("") : "";

export function conversationOf(body: { messages?: unknown }): Conversation {
  const msgs = (Array.isArray(body.messages) ? body.messages : []) as {
    role: string;
    content?: unknown;
    tool_call_id?: string;
  }[];
  return {
    messages: msgs.flatMap((m): Conversation["messages"] =>
      m.role === "user" || m.role === "assistant"
        ? [{ role: m.role, content: text(m.content) }]
        : m.role === "tool"
          ? [{ role: "tool" as const, content: text(m.content), tool_call_id: m.tool_call_id ?? "" }]
          : [],
    ),
  };
}

/** The prompt as the server counts it: system + messages + tools, serialised. */
export const promptText = (body: { messages?: unknown; tools?: unknown }) =>
  JSON.stringify(body.messages ?? []) + JSON.stringify(body.tools ?? []);
