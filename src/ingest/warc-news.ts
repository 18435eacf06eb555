import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { WARCParser, type WARCRecord } from "warcio";
import { z } from "zod";
import type { NewsRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { decodeHtml, extractArticle, htmlCharset, publishClock } from "./article-text.js";
import { type ImportReport, refuseIfEmpty } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";
import { DEFAULT_NEAR_DUPLICATE_JACCARD, minHash, NearDuplicateIndex } from "./near-duplicates.js";
import { urlDomain, urlId } from "./news-jsonl.js";
import { type FramingStats, normalizeWarc, type RecordDamage } from "./warc-framing.js";

export const WARC_NEWS_BUILDER = "ingest/warc-news";
export const WARC_NEWS_BUILDER_VERSION = "1";
/** Articles shorter than this (characters of extracted text) are rejected as "no article text". */
export const MIN_ARTICLE_CHARS = 200;

/** The WARC headers relive needs of a response record. */
const ResponseHeaders = z.object({
  "WARC-Target-URI": z.string().regex(/^https?:\/\/[^\s/]+/i, "not an http(s) URL"),
  "WARC-Date": z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, "not a WARC-Date (ISO 8601 UTC)"),
});

/** The article row drawn from one response record. */
const ArticleRow = z.object({
  id: z.string().min(1),
  url: z.string().min(1),
  domain: z.string().min(1),
  title: z.string().min(1, "no title"),
  text: z.string().min(MIN_ARTICLE_CHARS, `fewer than ${MIN_ARTICLE_CHARS} characters of article text`),
  published_at: z.number().int(),
  visible_at: z.number().int(),
});

export interface WarcImportOptions {
  name: string;
  /** estimated Jaccard similarity of word 3-shingles at which two articles are near-duplicates (default 0.8) */
  nearDuplicateJaccard?: number;
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const b = Buffer.alloc(2);
    const { bytesRead } = await fh.read(b, 0, 2, 0);
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function* tap(source: AsyncIterable<Buffer>, hash: { update(b: Buffer): unknown }): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

function framingReason(d: RecordDamage): string {
  switch (d.kind) {
    case "trailing-bytes":
      return `framing: ${d.bytes} bytes between the declared Content-Length and the next record (payload re-encoded or truncated header?)`;
    case "short-block":
      return `framing: the file ends ${d.bytes} bytes before the declared Content-Length`;
    case "cut-headers":
      return "framing: the file ends inside the record's headers";
  }
}

/** A response record's outcome, settled once the framing after it has been read. */
interface Pending {
  record: number;
  row: NewsRow | null;
  source: "self" | "crawl";
  /** why the record is rejected (unless framing damage is found first) */
  reason: string | null;
  /** the count a skipped (not an article, not rejected) record adds to, unless it is damaged */
  skip?: "skipped_non_200" | "skipped_non_html";
}

/**
 * Imports CC-NEWS WARC files (`.warc` or `.warc.gz`, per-record or whole-file gzip) into a new news
 * world. Every `response` record with HTTP 200 and an HTML payload becomes an article: payload
 * decoded by its charset, text and title by Readability over linkedom, `published_at` =
 * `visible_at` = the publish clock of data.md (`publishClock`: the page's self-reported time when
 * the crawl's WARC-Date corroborates it within 2 h, else WARC-Date − 2 h). Other records (warcinfo,
 * request, metadata, non-200, non-HTML) are counted as skipped. Rejected with file, record number
 * and reason: bad WARC headers, records with framing damage (bytes beyond the declared
 * Content-Length, or a block cut short), pages with no title or under 200 characters of text.
 * De-duplication: the same URL (first kept) and near-duplicates (MinHash of title + text word
 * 3-shingles at least `nearDuplicateJaccard` similar to a kept article: near-duplicates.ts), both counted. The bytes go through
 * `normalizeWarc` (LF-only header repair) before warcio's `WARCParser`.
 * Window = [min, max] publish clock. `RejectedRow.line` is the 1-based record number.
 */
export async function importWarcNews(
  files: string[],
  targetDir: string,
  opts: WarcImportOptions,
): Promise<ImportReport> {
  const builder = WorldBuilder.create(
    targetDir,
    {
      name: opts.name,
      window: { start: 0, end: 0 },
      builder: WARC_NEWS_BUILDER,
      builder_version: WARC_NEWS_BUILDER_VERSION,
    },
    { streamNewsFts: true },
  );
  try {
    const r = await importWarcNewsInto(builder, files, opts);
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** `importWarcNews`'s articles written into `sink` (the `news` stream, one manifest source per file, the window [min, max] publish clock). */
export async function importWarcNewsInto(
  sink: WorldSink,
  files: string[],
  opts: Omit<WarcImportOptions, "name">,
): Promise<Omit<ImportReport, "manifest">> {
  const near = new NearDuplicateIndex<string>(opts.nearDuplicateJaccard ?? DEFAULT_NEAR_DUPLICATE_JACCARD);
  const seenUrl = new Set<string>();
  const rejected: RejectedRow[] = [];
  const counts: Record<string, number> = {
    records: 0,
    responses: 0,
    skipped_records: 0,
    skipped_non_200: 0,
    skipped_non_html: 0,
    duplicate_url: 0,
    near_duplicate: 0,
    clock_self_reported: 0,
    clock_crawl_minus_2h: 0,
    lf_repaired_records: 0,
    damaged_records: 0,
  };
  let read = 0;
  let imported = 0;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  for (const file of files) {
    const hash = createHash("sha256");
    // every byte read feeds the hash (a tap, not a second "data" listener: that would steal chunks)
    const raw = Readable.from(tap(createReadStream(file), hash));
    const gz = await isGzip(file);
    const stats: FramingStats = { records: 0, lfRepaired: 0, damage: [] };
    const bytes = normalizeWarc(gz ? raw.pipe(createGunzip()) : raw, stats);
    const parser = new WARCParser(bytes);
    let fileRows = 0;
    let fileRejected = 0;
    let pending: Pending | null = null;
    let recordNo = 0;
    const reject = (record: number, reason: string) => {
      rejected.push({ file, line: record, reason });
      fileRejected++;
    };
    const settle = (p: Pending) => {
      const dmg = stats.damage.find((d) => d.record === p.record);
      if (dmg) {
        counts.damaged_records = (counts.damaged_records as number) + 1;
        reject(p.record, framingReason(dmg));
        return;
      }
      if (p.skip) {
        counts[p.skip] = (counts[p.skip] as number) + 1;
        return;
      }
      if (p.row === null) {
        reject(p.record, p.reason ?? "rejected");
        return;
      }
      if (seenUrl.has(p.row.url)) {
        counts.duplicate_url = (counts.duplicate_url as number) + 1;
        reject(p.record, `duplicate url ${JSON.stringify(p.row.url)} (the first is kept)`);
        return;
      }
      const h = minHash(`${p.row.title}\n${p.row.text}`);
      const dup = near.find(h);
      if (dup !== null) {
        counts.near_duplicate = (counts.near_duplicate as number) + 1;
        reject(p.record, `near-duplicate of ${dup} (MinHash similarity ≥ ${near.threshold})`);
        return;
      }
      seenUrl.add(p.row.url);
      near.add(h, p.row.url);
      sink.insertValidated("news", [p.row]);
      counts[p.source === "self" ? "clock_self_reported" : "clock_crawl_minus_2h"] =
        (counts[p.source === "self" ? "clock_self_reported" : "clock_crawl_minus_2h"] as number) + 1;
      fileRows++;
      imported++;
      if (p.row.published_at < minT) minT = p.row.published_at;
      if (p.row.published_at > maxT) maxT = p.row.published_at;
    };
    for await (const record of parser as AsyncIterable<WARCRecord>) {
      recordNo++;
      counts.records = (counts.records as number) + 1;
      if (pending) settle(pending);
      pending = null;
      if (record.warcType !== "response") {
        counts.skipped_records = (counts.skipped_records as number) + 1;
        await record.skipFully();
        continue;
      }
      counts.responses = (counts.responses as number) + 1;
      read++;
      const hdr = ResponseHeaders.safeParse({
        "WARC-Target-URI": record.warcTargetURI,
        "WARC-Date": record.warcDate,
      });
      const fail = (reason: string) => {
        pending = { record: recordNo, row: null, source: "crawl", reason };
      };
      if (!hdr.success) {
        fail(`WARC header ${String(hdr.error.issues[0]?.path[0])}: ${hdr.error.issues[0]?.message}`);
        await record.skipFully();
        continue;
      }
      const status = record.httpHeaders?.statusCode;
      const ctype = record.httpHeaders?.headers.get("content-type") ?? "";
      if (status !== 200 || !/text\/html|application\/xhtml/i.test(ctype)) {
        pending = {
          record: recordNo,
          row: null,
          source: "crawl",
          reason: null,
          skip: status !== 200 ? "skipped_non_200" : "skipped_non_html",
        };
        await record.skipFully();
        continue;
      }
      const payload = await record.readFully(true);
      const { html } = decodeHtml(payload, htmlCharset(ctype, payload));
      const url = hdr.data["WARC-Target-URI"].replace(/#.*$/, "");
      const art = extractArticle(html);
      if (!art) {
        fail("no article text (Readability found none)");
        continue;
      }
      const crawl = Date.parse(hdr.data["WARC-Date"]);
      const clock = publishClock(crawl, art.selfReported);
      const row = ArticleRow.safeParse({
        id: urlId(url),
        url,
        domain: urlDomain(url) ?? "",
        title: art.title,
        text: art.text,
        published_at: clock.t,
        visible_at: clock.t,
      });
      if (!row.success) {
        const i = row.error.issues[0];
        fail(`article ${i?.path.join(".")}: ${i?.message}`);
        continue;
      }
      pending = { record: recordNo, row: row.data, source: clock.source, reason: null };
    }
    if (pending) settle(pending);
    counts.lf_repaired_records = (counts.lf_repaired_records as number) + stats.lfRepaired;
    sink.addSource({ path: file, sha256: hash.digest("hex"), rows: fileRows, rejected: fileRejected });
  }
  refuseIfEmpty("HTML response records", read, imported, rejected);
  sink.setWindow({ start: minT, end: maxT });
  return { read, imported, rejected, counts };
}
