import { type Dirent, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { type LineIndexCache, offsetOfLine } from "./line-index.js";
import { parseLine } from "./line-peek.js";
import { scanForward } from "./line-scan.js";

/**
 * Transcript files of a run: `transcripts/<actor>.jsonl` beside the ledger; for runs written before
 * transcripts moved out of the agent's reach, `workspace/transcripts/<actor>.jsonl` and any other
 * `transcript*.jsonl` in the workspace (three levels deep at most). One chat message per line
 * (`role`, `content`, `tool_calls`, `tool_call_id`, `name`, optionally `t` in simulated epoch ms or
 * an ISO `at`); a line in any other shape is shown as its JSON.
 */
export function findTranscripts(runDir: string): string[] {
  const ws = join(runDir, "workspace");
  const out: string[] = [];
  const list = (dir: string): Dirent[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return [];
    }
  };
  for (const d of list(join(runDir, "transcripts")))
    if (d.isFile() && d.name.endsWith(".jsonl")) out.push(join("transcripts", d.name));
  const walk = (dir: string, depth: number) => {
    for (const d of list(dir)) {
      const p = join(dir, d.name);
      if (d.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (
        d.isFile() &&
        d.name.endsWith(".jsonl") &&
        (d.name.startsWith("transcript") || relative(ws, dir) === "transcripts")
      )
        out.push(relative(runDir, p));
    }
  };
  walk(ws, 0);
  return out;
}

const ToolCall = z.looseObject({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() });

/** The message shape a transcript line is read as (extra fields are kept). */
export const TranscriptMessage = z.looseObject({
  role: z.string(),
  content: z.string().nullable().optional(),
  tool_calls: z.array(ToolCall).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  t: z.number().optional(),
  at: z.string().optional(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessage>;

export interface TranscriptRow {
  line: number;
  message: TranscriptMessage | null;
  /** the line as parsed, when it is not a message */
  raw: unknown;
  error: string | null;
}

export interface TranscriptPage {
  total: number;
  rows: TranscriptRow[];
  prev: number | null;
  next: number | null;
}

/** Lines [cursor, cursor + limit) of a transcript file, read through its sparse index. */
export function readTranscriptPage(
  indexes: LineIndexCache,
  path: string,
  cursor: number,
  limit: number,
): Promise<TranscriptPage> {
  return indexes.with(path, async (index, fh) => {
    const start = Math.min(cursor, index.lines);
    const rows: TranscriptRow[] = [];
    if (start < index.lines) {
      let line = start;
      await scanForward(fh, await offsetOfLine(index, fh, start), index.bytes, (buf, s, e) => {
        const v = parseLine(buf, s, e);
        const m = v === null ? null : TranscriptMessage.safeParse(v);
        rows.push({
          line: line++,
          message: m?.success ? m.data : null,
          raw: v,
          error: v === null ? "not valid JSON" : m?.success ? null : "not a chat message",
        });
        return rows.length < limit;
      });
    }
    const end = start + rows.length;
    return {
      total: index.lines,
      rows,
      prev: start > 0 ? Math.max(0, start - limit) : null,
      next: end < index.lines ? end : null,
    };
  });
}
