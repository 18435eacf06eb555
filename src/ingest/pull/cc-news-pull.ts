import { basename } from "node:path";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { definePullSource } from "./pull-source.js";

/**
 * Common Crawl CC-NEWS: the month's file listing `crawl-data/CC-NEWS/<YYYY>/<MM>/warc.paths.gz`
 * (gzipped, one `crawl-data/CC-NEWS/YYYY/MM/CC-NEWS-<YYYYMMDDhhmmss>-<NNNNN>.warc.gz` path a line),
 * then the WARC files whose timestamp falls in [--from, --to) (all of the month without them),
 * at most --max-files of them. The listing is kept as served
 * (`cc-news/<YYYY>/<MM>/warc.paths.gz`); each WARC file is streamed to
 * `cc-news/<YYYY>/<MM>/<name>` (about 1 GB each: never held in memory; an interrupted download
 * continues from its `.part` with a Range request) — the files the CC-NEWS WARC importer reads.
 */

const PATH = /^crawl-data\/CC-NEWS\/(\d{4})\/(\d{2})\/CC-NEWS-(\d{14})-\d{5}\.warc\.gz$/;

const instant = z.string().transform((s, c) => {
  const t = Date.parse(s);
  if (!Number.isFinite(t)) {
    c.addIssue({ code: "custom", message: `not an ISO date-time: ${s}` });
    return z.NEVER;
  }
  return t;
});

const Options = z.object({
  month: z.array(z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "expected YYYY-MM")).min(1, "give --month YYYY-MM"),
  from: instant.optional(),
  to: instant.optional(),
  maxFiles: z.coerce.number().int().positive().optional(),
});

/** the crawl instant in a CC-NEWS file name (UTC) */
function stampOf(p: string): number {
  const s = PATH.exec(p)?.[3] as string;
  return Date.UTC(
    +s.slice(0, 4),
    +s.slice(4, 6) - 1,
    +s.slice(6, 8),
    +s.slice(8, 10),
    +s.slice(10, 12),
    +s.slice(12, 14),
  );
}

export const ccNewsPull = definePullSource({
  name: "cc-news",
  describe: "Common Crawl CC-NEWS WARC files of given months (listing + download)",
  endpoints: { data: { default: "https://data.commoncrawl.org", env: "RELIVE_PULL_CCNEWS_URL" } },
  defaultRate: 2,
  options: [
    { flags: "--month <YYYY-MM>", description: "crawl month (repeatable)", repeatable: true },
    { flags: "--from <iso>", description: "only files crawled from this instant" },
    { flags: "--to <iso>", description: "only files crawled before this instant" },
    { flags: "--max-files <n>", description: "at most this many WARC files in all" },
  ],
  schema: Options,
  async run(ctx, o) {
    const base = ctx.base("data");
    const wanted: string[] = [];
    ctx.progress.grow(o.month.length);
    for (const month of o.month) {
      const [y, m] = month.split("-") as [string, string];
      const listing = `crawl-data/CC-NEWS/${y}/${m}/warc.paths.gz`;
      const got = await ctx.item(
        `listing/${month}`,
        `${base}/${listing}`,
        `cc-news/${y}/${m}/warc.paths.gz`,
        (body, url) => {
          let text: string;
          try {
            text = gunzipSync(body).toString("utf8");
          } catch (e) {
            throw new Error(`${url}: not gzip (${(e as Error).message})`);
          }
          const lines = text.split("\n").filter((l) => l.trim() !== "");
          lines.forEach((l, i) => {
            const p = PATH.exec(l);
            if (!p || `${p[1]}-${p[2]}` !== month)
              throw new Error(
                `${url}: line ${i + 1} is not a CC-NEWS path of ${month}: ${JSON.stringify(l.slice(0, 120))}`,
              );
          });
          return { write: body, meta: lines };
        },
      );
      for (const p of (got?.meta ?? []) as string[]) {
        const t = stampOf(p);
        if ((o.from === undefined || t >= o.from) && (o.to === undefined || t < o.to)) wanted.push(p);
      }
    }
    const files = o.maxFiles === undefined ? wanted : wanted.slice(0, o.maxFiles);
    if (files.length < wanted.length)
      ctx.log(`cc-news: ${wanted.length} files match; fetching the first ${files.length}`);
    ctx.progress.grow(files.length);
    for (const p of files) {
      const [, y, m] = PATH.exec(p) as RegExpExecArray;
      await ctx.download(`warc/${p}`, `${base}/${p}`, `cc-news/${y}/${m}/${basename(p)}`);
    }
  },
});
