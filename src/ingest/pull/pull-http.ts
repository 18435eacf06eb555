import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { SlidingWindowLimiter } from "../../kernel/rate-limiter.js";

/**
 * The HTTP side of `relive data pull`: every request goes through one sliding-window limiter
 * (at most `rate` requests in any second; below 1/s, one per 1/rate seconds), carries the
 * configured User-Agent, and is retried on network errors, 429 and 5xx (Retry-After honoured,
 * else exponential backoff). A pull is not a simulation: it reads the monotonic wall clock to
 * space its requests (the clock and the sleep are injectable so tests need no real waiting).
 */

export interface PullHttpOptions {
  /** requests per second (> 0) */
  rate: number;
  userAgent: string;
  /** retries after the first attempt (default 4) */
  retries?: number;
  /** first backoff delay in ms, doubled per retry (default 1000) */
  backoffMs?: number;
  /** per-request timeout in ms (default 120 000) */
  timeoutMs?: number;
  /** monotonic ms clock (default performance.now) */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

export type PullResponse = { status: "ok"; body: Buffer } | { status: "not_found" };

export class PullHttpError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

function limiterFor(rate: number): SlidingWindowLimiter {
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`pull rate must be a positive number, got ${rate}`);
  return rate >= 1
    ? new SlidingWindowLimiter({ limit: Math.floor(rate), windowMs: 1000 })
    : new SlidingWindowLimiter({ limit: 1, windowMs: Math.ceil(1000 / rate) });
}

export class PullHttp {
  readonly requests: string[] = [];
  private readonly limiter: SlidingWindowLimiter;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly o: PullHttpOptions) {
    this.limiter = limiterFor(o.rate);
    this.now = o.now ?? (() => performance.now());
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.fetchFn = o.fetch ?? fetch;
  }

  /** Waits until the limiter admits one more request. */
  private async slot(): Promise<void> {
    for (;;) {
      const a = this.limiter.tryAcquire(this.now());
      if (a.ok) return;
      await this.sleep(a.retryAfterMs);
    }
  }

  private async request(url: string, headers: Record<string, string> = {}): Promise<Response | null> {
    if (!/^https?:\/\//.test(url)) throw new PullHttpError(`not an http(s) URL: ${url}`, url, null);
    const retries = this.o.retries ?? 4;
    const backoff = this.o.backoffMs ?? 1000;
    let last = "";
    for (let attempt = 0; attempt <= retries; attempt++) {
      await this.slot();
      this.requests.push(url);
      let res: Response;
      try {
        res = await this.fetchFn(url, {
          headers: { "User-Agent": this.o.userAgent, ...headers },
          signal: AbortSignal.timeout(this.o.timeoutMs ?? 120_000),
          redirect: "follow",
        });
      } catch (e) {
        last = `network error: ${(e as Error).message}`;
        if (attempt < retries) await this.sleep(backoff * 2 ** attempt);
        continue;
      }
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (res.ok) return res;
      const text = (await res.text().catch(() => "")).slice(0, 200);
      last = `HTTP ${res.status}${text ? `: ${text}` : ""}`;
      if (!RETRY_STATUS.has(res.status)) throw new PullHttpError(`GET ${url} failed: ${last}`, url, res.status);
      if (attempt < retries) {
        const header = res.headers.get("retry-after");
        const after = header === null || header.trim() === "" ? Number.NaN : Number(header);
        await this.sleep(Number.isFinite(after) && after >= 0 ? after * 1000 : backoff * 2 ** attempt);
      }
    }
    throw new PullHttpError(`GET ${url} failed after ${retries + 1} attempts: ${last}`, url, null);
  }

  /** GET a whole body (404 → not_found). */
  async get(url: string): Promise<PullResponse> {
    const res = await this.request(url);
    if (!res) return { status: "not_found" };
    return { status: "ok", body: Buffer.from(await res.arrayBuffer()) };
  }

  /**
   * Streams a large body to `file` (never held in memory) through `file.part`; a `.part` left by an
   * interrupted run is continued with a Range request when the server answers 206 (else restarted).
   * The file appears (renamed) only when complete. Returns the byte count, or null on 404.
   */
  async download(url: string, file: string): Promise<number | null> {
    const part = `${file}.part`;
    mkdirSync(dirname(file), { recursive: true });
    const have = existsSync(part) ? statSync(part).size : 0;
    const res = await this.request(url, {
      "Accept-Encoding": "identity",
      ...(have > 0 ? { Range: `bytes=${have}-` } : {}),
    });
    if (!res) return null;
    if (!res.body) throw new PullHttpError(`GET ${url}: empty body`, url, res.status);
    const append = have > 0 && res.status === 206;
    // synchronous writes per chunk: whatever arrived is on disk when the connection breaks
    const fd = openSync(part, append ? "a" : "w");
    try {
      for await (const chunk of Readable.fromWeb(res.body as import("node:stream/web").ReadableStream))
        writeSync(fd, chunk as Uint8Array);
    } catch (e) {
      throw new PullHttpError(
        `GET ${url}: the download broke off after ${statSync(part).size} bytes (${(e as Error).message}); run the pull again to continue it`,
        url,
        res.status,
      );
    } finally {
      closeSync(fd);
    }
    const size = statSync(part).size;
    const total = Number(res.headers.get("content-length"));
    if (Number.isFinite(total) && total > 0 && size !== (append ? have + total : total))
      throw new PullHttpError(
        `GET ${url}: got ${size} bytes, expected ${append ? have + total : total}`,
        url,
        res.status,
      );
    renameSync(part, file);
    return size;
  }
}
