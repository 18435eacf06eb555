import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { offsetOfLine } from "./line-index.js";
import { parseLine } from "./line-peek.js";
import { scanForward } from "./line-scan.js";
function findTranscripts(runDir) {
  const ws = join(runDir, "workspace");
  const out = [];
  const list = (dir) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return [];
    }
  };
  for (const d of list(join(runDir, "transcripts")))
    if (d.isFile() && d.name.endsWith(".jsonl")) out.push(join("transcripts", d.name));
  const walk = (dir, depth) => {
    for (const d of list(dir)) {
      const p = join(dir, d.name);
      if (d.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (d.isFile() && d.name.endsWith(".jsonl") && (d.name.startsWith("transcript") || relative(ws, dir) === "transcripts"))
        out.push(relative(runDir, p));
    }
  };
  walk(ws, 0);
  return out;
}
const ToolCall = z.looseObject({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() });
const TranscriptMessage = z.looseObject({
  role: z.string(),
  content: z.string().nullable().optional(),
  tool_calls: z.array(ToolCall).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  t: z.number().optional(),
  at: z.string().optional()
});
function readTranscriptPage(indexes, path, cursor, limit) {
  return indexes.with(path, async (index, fh) => {
    const start = Math.min(cursor, index.lines);
    const rows = [];
    if (start < index.lines) {
      let line = start;
      await scanForward(fh, await offsetOfLine(index, fh, start), index.bytes, (buf, s, e) => {
        const v = parseLine(buf, s, e);
        const m = v === null ? null : TranscriptMessage.safeParse(v);
        rows.push({
          line: line++,
          message: m?.success ? m.data : null,
          raw: v,
          error: v === null ? "not valid JSON" : m?.success ? null : "not a chat message"
        });
        return rows.length < limit;
      });
    }
    const end = start + rows.length;
    return {
      total: index.lines,
      rows,
      prev: start > 0 ? Math.max(0, start - limit) : null,
      next: end < index.lines ? end : null
    };
  });
}
export {
  TranscriptMessage,
  findTranscripts,
  readTranscriptPage
};
//# sourceMappingURL=transcripts.js.map
