import { closeSync, existsSync, openSync, readFileSync, readSync, truncateSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
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

/**
 * The complete lines of a ledger one at a time, read in chunks (the file is never held whole); a
 * torn last line is dropped, as by `readLedgerLines`.
 */
export function* ledgerLines(path: string, chunkBytes = 1 << 20): Generator<string> {
  if (!existsSync(path)) throw new Error(`no ledger at ${path}`);
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder("utf8");
    let rest = "";
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      const text = rest + decoder.write(buf.subarray(0, n));
      let from = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", from)) {
        yield text.slice(from, nl);
        from = nl + 1;
      }
      rest = text.slice(from);
    }
  } finally {
    closeSync(fd);
  }
}

/** Parses and validates one line (zod); `i` is its 0-based index, which must be its seq. */
function parseLine(path: string, line: string, i: number): LedgerEvent {
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
}

/** Parses and validates every complete line (zod), one event at a time (rescore's streaming read). */
export function* ledgerEvents(path: string): Generator<LedgerEvent> {
  let i = 0;
  for (const line of ledgerLines(path)) yield parseLine(path, line, i++);
}

/** Parses and validates every complete line (zod). */
export function readLedger(path: string): LedgerEvent[] {
  return readLedgerLines(path).map((line, i) => parseLine(path, line, i));
}
