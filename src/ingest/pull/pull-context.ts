import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { type PullHttp, PullHttpError } from "./pull-http.js";
import { atomicWrite, type PullState } from "./pull-state.js";

/** Progress of a pull: `grow` when more items become known, `tick` when one is done or skipped. */
export interface PullProgress {
  grow(items: number): void;
  tick(label: string): void;
}

export interface PullCounts {
  fetched: number;
  skipped: number;
  absent: number;
  bytes: number;
}

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** What a source does with one fetched body: the bytes to write and what it needs to continue. */
export type ItemHandler<M extends Json> = (body: Buffer, url: string) => { write: string | Uint8Array; meta: M };

/** Parses a JSON body with a zod schema; errors name the URL and the first issue. */
export function parseBody<T>(body: Buffer, url: string, schema: z.ZodType<T>, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString("utf8"));
  } catch (e) {
    throw new Error(`${url}: not JSON (${(e as Error).message})`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`${url}: not ${what} (${i?.path.length ? `${i.path.join(".")}: ` : ""}${i?.message ?? "invalid"})`);
  }
  return r.data;
}

const sha256 = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex");

async function fileSha256(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/**
 * What a pull source works with: base URLs, the rate-limited HTTP client, and resumable items.
 * An item (key, url, file) already done in the state is skipped — its recorded `meta` is returned
 * without a request — so re-running a pull re-walks its plan and fetches only what is missing.
 */
export class PullContext {
  readonly counts: PullCounts = { fetched: 0, skipped: 0, absent: 0, bytes: 0 };

  constructor(
    readonly outDir: string,
    readonly http: PullHttp,
    readonly state: PullState,
    private readonly bases: Readonly<Record<string, string>>,
    readonly progress: PullProgress,
    readonly log: (msg: string) => void,
    /** ask again for everything (a newer snapshot), ignoring what the state says is done */
    private readonly refresh = false,
  ) {}

  /** the base URL of an endpoint, without a trailing slash */
  base(endpoint: string): string {
    const b = this.bases[endpoint];
    if (!b) throw new Error(`no base URL for endpoint "${endpoint}"`);
    return b.replace(/\/+$/, "");
  }

  /**
   * Fetches one item unless done: `handle` validates the body and says what to write to `file`
   * (relative to the output dir) and what to remember. A 404 is recorded as absent when
   * `allowAbsent` (returns null; re-runs do not ask again), else an error.
   */
  async item<M extends Json>(
    key: string,
    url: string,
    file: string,
    handle: ItemHandler<M>,
    o: { allowAbsent?: boolean } = {},
  ): Promise<{ meta: M } | null> {
    const done = this.refresh ? null : this.state.done(key, this.outDir);
    if (done) {
      this.counts.skipped++;
      this.progress.tick(`${key} (done)`);
      return { meta: (done.meta ?? null) as M };
    }
    if (o.allowAbsent && !this.refresh && this.state.absent(key) !== null) {
      this.counts.skipped++;
      this.progress.tick(`${key} (absent)`);
      return null;
    }
    const res = await this.http.get(url);
    if (res.status === "not_found") {
      if (!o.allowAbsent) throw new PullHttpError(`GET ${url}: 404 not found`, url, 404);
      this.state.markAbsent(key, `404 at ${url}`);
      this.counts.absent++;
      this.progress.tick(`${key} (404)`);
      return null;
    }
    const { write, meta } = handle(res.body, url);
    atomicWrite(join(this.outDir, file), write);
    const bytes = typeof write === "string" ? Buffer.byteLength(write) : write.byteLength;
    this.state.markDone(key, { file, bytes, sha256: sha256(write), meta });
    this.counts.fetched++;
    this.counts.bytes += bytes;
    this.progress.tick(key);
    return { meta };
  }

  /** Streams one large file unless done (continuing a `.part` left by an interrupted run). */
  async download(key: string, url: string, file: string): Promise<void> {
    if (!this.refresh && this.state.done(key, this.outDir)) {
      this.counts.skipped++;
      this.progress.tick(`${key} (done)`);
      return;
    }
    const path = join(this.outDir, file);
    const bytes = await this.http.download(url, path);
    if (bytes === null) throw new PullHttpError(`GET ${url}: 404 not found`, url, 404);
    this.state.markDone(key, { file, bytes, sha256: await fileSha256(path) });
    this.counts.fetched++;
    this.counts.bytes += bytes;
    this.progress.tick(key);
  }
}
