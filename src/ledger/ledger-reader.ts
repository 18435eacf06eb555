import { existsSync, readFileSync, truncateSync } from "node:fs";
import { LedgerEvent } from "./events.js";

export class LedgerFormatError extends Error {
  constructor(path: string, line: number, reason: string) {
    super(`${path}:${line}: not a valid ledger event: ${reason}`);
    this.name = "LedgerFormatError";
  }
}

/**
 * Reads the complete lines of a ledger. A torn last line (a kill mid-write: no trailing newline)
 * is dropped; with `repair` the file is truncated to the last complete line.
 */
export function readLedgerLines(path: string, opts: { repair?: boolean } = {}): string[] {
  if (!existsSync(path)) throw new Error(`no ledger at ${path}`);
  const text = readFileSync(path, "utf8");
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length && opts.repair) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  return end === 0 ? [] : text.slice(0, end - 1).split("\n");
}

/** Parses and validates every complete line (zod). */
export function readLedger(path: string): LedgerEvent[] {
  return readLedgerLines(path).map((line, i) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new LedgerFormatError(path, i + 1, (err as Error).message);
    }
    const parsed = LedgerEvent.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new LedgerFormatError(path, i + 1, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
    if (parsed.data.seq !== i) throw new LedgerFormatError(path, i + 1, `seq ${parsed.data.seq} out of order`);
    return parsed.data;
  });
}
