import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";

/**
 * The resumable state of one pull into one output directory: `.pull-state/<source>.json`, listing
 * every item already fetched (its key, the file it wrote, bytes, sha256) and the items the source
 * answered "not found" for (EDGAR's companyfacts of a company without XBRL). Re-running a pull
 * skips every done item whose file is still there. Written atomically (temp file + rename) after
 * each item, so a killed pull loses at most the item in flight.
 */

const DoneItem = z.object({
  file: z.string().min(1),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** what the source needs from this item to continue (a page cursor, the tokens it lists) */
  meta: z.json().optional(),
});
const StateFile = z.object({
  version: z.literal(1),
  source: z.string().min(1),
  done: z.record(z.string(), DoneItem),
  absent: z.record(z.string(), z.string()),
});
export type PullDoneItem = z.infer<typeof DoneItem>;

/** Writes `data` to `file` through a temp file in the same directory and a rename (never a partial file). */
export function atomicWrite(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

export class PullState {
  private constructor(
    readonly path: string,
    private readonly data: z.infer<typeof StateFile>,
  ) {}

  static open(outDir: string, source: string): PullState {
    const path = join(outDir, ".pull-state", `${source}.json`);
    if (!existsSync(path)) return new PullState(path, { version: 1, source, done: {}, absent: {} });
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new Error(`${path}: the pull state is not JSON (${(e as Error).message}); delete it to start over`);
    }
    const p = StateFile.safeParse(raw);
    if (!p.success)
      throw new Error(
        `${path}: not a pull state file (${p.error.issues[0]?.message ?? "invalid"}); delete it to start over`,
      );
    if (p.data.source !== source) throw new Error(`${path}: the state of source "${p.data.source}", not "${source}"`);
    return new PullState(path, p.data);
  }

  /** the done record of `key` when its file still exists under `outDir` */
  done(key: string, outDir: string): PullDoneItem | null {
    const d = this.data.done[key];
    return d && existsSync(join(outDir, d.file)) ? d : null;
  }

  absent(key: string): string | null {
    return this.data.absent[key] ?? null;
  }

  markDone(key: string, item: PullDoneItem): void {
    this.data.done[key] = item;
    delete this.data.absent[key];
    this.save();
  }

  markAbsent(key: string, reason: string): void {
    this.data.absent[key] = reason;
    this.save();
  }

  get doneCount(): number {
    return Object.keys(this.data.done).length;
  }

  private save(): void {
    atomicWrite(this.path, `${JSON.stringify(this.data, null, 1)}\n`);
  }
}
