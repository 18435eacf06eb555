import { z } from "zod";
import { isoDay, isoInstant, startOfUtcDay } from "../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../tools/tool.js";
import type { MemoryNote, MemoryStore, MemoryView } from "./memory-store.js";

export const MEMORY_READ_TOOL = "memory_read";
export const MEMORY_APPEND_TOOL = "memory_append";
/** the harness's one memory tool set (the memory phase allows only these) */
export const MEMORY_TOOL_NAMES: readonly string[] = [MEMORY_READ_TOOL, MEMORY_APPEND_TOOL];

/** longest note */
export const NOTE_MAX_CHARS = 2000;
/** notes listed per list in one read (newest kept; the rest are counted) */
export const READ_MAX_NOTES = 40;
/** items listed in one read without `item` (most recently noted first; the rest are counted) */
export const READ_MAX_ITEMS = 100;

const ITEM = z
  .string()
  .min(1)
  .max(300)
  .describe("what the note is about: a task item's id (a question, market, ticker, post) as the tools name it");

export const MemoryAppendArgs = z
  .object({
    note: z.string().min(1).max(NOTE_MAX_CHARS).describe(`the note (at most ${NOTE_MAX_CHARS} characters)`),
    item: ITEM.optional(),
  })
  .strict();

export const MemoryReadArgs = z
  .object({
    item: ITEM.optional().describe("only this item's notes"),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe('"YYYY-MM-DD" of a past day: memory as it stood at that day\'s end (read-only); default: now'),
  })
  .strict();

const shown = (n: MemoryNote) => ({ at: isoInstant(n.at), note: n.text });

/** the newest `max` of `list`, oldest first, with how many older ones were left out */
function newest(list: readonly MemoryNote[], max: number) {
  const kept = list.slice(Math.max(0, list.length - max));
  return { notes: kept.map(shown), older_not_shown: list.length - kept.length };
}

function render(v: MemoryView) {
  const items = Object.entries(v.items).sort((a, b) => b[1].at(-1)!.at - a[1].at(-1)!.at || (a[0] < b[0] ? -1 : 1));
  const listed = items.slice(0, READ_MAX_ITEMS);
  return {
    general: newest(v.general, READ_MAX_NOTES),
    items: Object.fromEntries(listed.map(([id, notes]) => [id, { notes: notes.length, latest: shown(notes.at(-1)!) }])),
    items_not_shown: items.length - listed.length,
  };
}

/**
 * The harness's memory tools (`agent.memory_tools`), for any task: `memory_append(note, item?)` adds a
 * note (general, or about one item) and `memory_read(item?, date?)` reads the memory as it stands now
 * or as it stood at the end of a past day (an immutable snapshot). Free (`meta`). Items are the agent's
 * own labels: the harness checks nothing about them against the world, so a note can reveal nothing.
 */
export function memoryTools(store: MemoryStore): ToolDef[] {
  const append = defineTool({
    name: MEMORY_APPEND_TOOL,
    description:
      `Free. Add a note to your memory (at most ${NOTE_MAX_CHARS} characters), general or about one item (\`item\`: ` +
      "the id of a question, market, ticker, ...). Notes are kept for the whole run; past days' memory never changes.",
    args: MemoryAppendArgs,
    kind: "meta",
    run(a, c) {
      store.append({ at: c.now(), actor: c.actor, item: a.item ?? null, text: a.note });
      const n = store.count(c.actor);
      return ok({ saved: true, ...(a.item !== undefined ? { item: a.item } : {}), notes_in_memory: n });
    },
  });
  const read = defineTool({
    name: MEMORY_READ_TOOL,
    description:
      "Free. Your memory: general notes and notes per item, as they stand now, or as they stood at the end of a past " +
      `day (\`date\`, read-only). Without \`item\`: the newest ${READ_MAX_NOTES} general notes and each item's latest note; ` +
      "with `item`: that item's notes.",
    args: MemoryReadArgs,
    kind: "meta",
    run(a, c) {
      const now = c.now();
      let v = store.before(c.actor, Number.POSITIVE_INFINITY);
      let asOf = isoInstant(now);
      if (a.date !== undefined) {
        const day = Date.parse(`${a.date}T00:00:00Z`);
        if (!Number.isFinite(day)) return reject(`date "${a.date}" is not a valid date`);
        if (day >= startOfUtcDay(now))
          return reject(
            `no snapshot for ${a.date}: snapshots exist for days that have ended (up to ${isoDay(startOfUtcDay(now) - 1)}); omit date for today's memory`,
          );
        v = store.snapshot(c.actor, day);
        asOf = `end of ${a.date}`;
      }
      if (a.item !== undefined)
        return ok({ as_of: asOf, item: a.item, ...newest(v.items[a.item] ?? [], READ_MAX_NOTES) });
      return ok({ as_of: asOf, ...render(v) });
    },
  });
  return [read, append];
}
