import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import type { WorldManifest } from "../world/types.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";

/** What one `relive data import` produced: the world, counts, and every rejected source row. */
export interface ImportReport {
  manifest: WorldManifest;
  /** source rows (lines, records, array entries) read */
  read: number;
  /** rows that became world rows of the primary stream (articles, markets, posts + comments, candles) */
  imported: number;
  rejected: RejectedRow[];
  /** further named counts (duplicates, skipped records, truth labels, rows per stream …) */
  counts: Record<string, number>;
}

/**
 * Thrown instead of writing a world when the input is empty or every row was rejected; carries the
 * rejections so the CLI can print them. The builder has been aborted: no directory is left behind.
 */
export class ImportRefusedError extends Error {
  constructor(
    message: string,
    readonly rejected: RejectedRow[],
    readonly read: number,
  ) {
    super(message);
    this.name = "ImportRefusedError";
  }
}

/**
 * Throws `ImportRefusedError` when nothing was imported (the caller that made the sink aborts the
 * build in its catch: no world is written).
 */
export function refuseIfEmpty(what: string, read: number, imported: number, rejected: RejectedRow[]): void {
  if (imported > 0) return;
  const why = read === 0 ? `the input holds no ${what}` : `every one of the ${read} source row(s) was rejected`;
  throw new ImportRefusedError(`nothing to import: ${why}; no world was written`, rejected, read);
}

/** sha256 (hex) of a file, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** sha256 (hex) of a file, read whole (small inputs: recipe cache keys). */
export function fileSha256Sync(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The first issue of a zod error as "field: message". */
export function zodReason(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const i = issues[0];
  if (!i) return "invalid row";
  return `${i.path.length ? `field "${i.path.map(String).join(".")}": ` : ""}${i.message}`;
}

/** The most frequent rejection reasons (quoted values and words with digits folded to … so that alike reasons group). */
export function topReasons(rejected: readonly RejectedRow[], n = 5): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of rejected) {
    const key = r.reason.replace(/"[^"]*"/g, '"…"').replace(/[^\s"(),:]*\d[^\s"(),:]*/g, "…");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([reason, count]) => ({ reason, count }));
}
