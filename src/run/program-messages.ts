import { z } from "zod";
import { isoInstant } from "../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../tools/tool.js";

export const SEND_MESSAGE_TOOL = "send_message";
export const READ_MESSAGES_TOOL = "read_messages";
const MAX_TEXT = 4_000;
const MAX_UNREAD = 200;

interface Message {
  from: string;
  to: string;
  sent_at: string;
  text: string;
}

/**
 * Messages between the actors of a program shape (e.g. the coordinator and the per-market agents):
 * `send_message(to, text)` to one actor or `all`, `read_messages()` for the caller's unread ones.
 * Free; a message wakes nobody (the recipient reads it at its next wake). Mailboxes are run state
 * rebuilt by re-running the episode; every send is in the ledger as the tool call's arguments.
 */
export function programMessageTools(actorIds: readonly string[]): ToolDef[] {
  const inbox = new Map<string, Message[]>(actorIds.map((id) => [id, []]));
  const send = defineTool({
    name: SEND_MESSAGE_TOOL,
    description:
      `Free: send a note to another agent of this program (${actorIds.join(", ")}) or to "all" of them. ` +
      "It does not wake them: they read it with read_messages at their next wake.",
    args: z
      .object({
        to: z.string().min(1).describe(`an agent id, or "all"`),
        text: z.string().min(1).max(MAX_TEXT).describe(`the note (at most ${MAX_TEXT} characters)`),
      })
      .strict(),
    kind: "meta",
    run(a, c) {
      const targets = a.to === "all" ? actorIds.filter((id) => id !== c.actor) : [a.to];
      if (a.to === c.actor) return reject("to: you cannot message yourself");
      for (const id of targets)
        if (!inbox.has(id)) return reject(`to: no agent "${a.to}"; agents: ${actorIds.join(", ")}, all`);
      for (const id of targets) {
        const box = inbox.get(id) as Message[];
        if (box.length >= MAX_UNREAD)
          return reject(`to: ${id} has ${MAX_UNREAD} unread messages; wait until it reads them`);
      }
      const sent_at = isoInstant(c.now());
      for (const id of targets) (inbox.get(id) as Message[]).push({ from: c.actor, to: id, sent_at, text: a.text });
      return ok({ delivered_to: targets });
    },
  });
  const read = defineTool({
    name: READ_MESSAGES_TOOL,
    description: "Free: the messages other agents of this program sent you since you last read them (oldest first).",
    args: z.object({}).strict(),
    kind: "meta",
    run(_a, c) {
      const box = inbox.get(c.actor);
      if (!box) return reject(`you are not an agent of this program`);
      const messages = box.splice(0, box.length).map(({ from, sent_at, text }) => ({ from, sent_at, text }));
      return ok({ messages });
    },
  });
  return [send, read];
}
