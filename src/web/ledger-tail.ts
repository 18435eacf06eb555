import { open } from "node:fs/promises";
import { parseLine, peekLine } from "./line-peek.js";
import { completeEnd, scanBackward, scanForward } from "./line-scan.js";

/** What the first and last lines of a ledger say about a run, read without scanning the file. */
export interface LedgerTail {
  /** file size in bytes */
  size: number;
  /** bytes after the last newline: a torn last line (a kill mid-write) */
  torn_bytes: number;
  /** line 0 parsed (the run_start event), null when there is none */
  first: Record<string, unknown> | null;
  /** the last complete line: its seq and t (seq + 1 = events written when the ledger is intact) */
  last: { seq: number; type: string; t: number; kind?: string } | null;
  /** the latest daily_brief within the last `briefWindowBytes`, parsed */
  brief: Record<string, unknown> | null;
}

const SMALL_CHUNK = 64 * 1024;

/** Reads the head and the tail of a ledger (bounded reads; the whole file is never read). */
export async function readLedgerTail(path: string, briefWindowBytes = 4 * 1024 * 1024): Promise<LedgerTail> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const end = await completeEnd(fh, size);
    let first: Record<string, unknown> | null = null;
    await scanForward(
      fh,
      0,
      end,
      (buf, s, e) => {
        const v = parseLine(buf, s, e);
        first = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
        return false;
      },
      SMALL_CHUNK,
    );
    let last: LedgerTail["last"] = null;
    let brief: Record<string, unknown> | null = null;
    let scanned = 0;
    await scanBackward(
      fh,
      end,
      0,
      (buf, s, e) => {
        const p = peekLine(buf, s, e);
        if (last === null) {
          last = p === null ? null : { seq: p.seq, type: p.type, t: p.t };
          // a note's kind says why a run stopped (e.g. provider_failed)
          if (last !== null && p?.type === "note") {
            const kind = (parseLine(buf, s, e) as { kind?: unknown } | null)?.kind;
            if (typeof kind === "string") last.kind = kind;
          }
        }
        if (p?.type === "daily_brief") {
          brief = parseLine(buf, s, e) as Record<string, unknown> | null;
          return false;
        }
        scanned += e - s + 1;
        return scanned < briefWindowBytes;
      },
      SMALL_CHUNK,
    );
    return { size, torn_bytes: size - end, first, last, brief };
  } finally {
    await fh.close();
  }
}
