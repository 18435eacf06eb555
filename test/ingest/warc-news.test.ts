import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARCRecord, WARCSerializer } from "warcio";
import { publishClock } from "../../src/ingest/article-text.js";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { importWarcNews } from "../../src/ingest/warc-news.js";
import { WorldStore } from "../../src/world/world-store.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const rawDir = process.env.RELIVE_RAW_DIR ?? resolve(repoRoot, "../shared/data/raw");
const samples = ["warc-ccmain-resiliparse", "warc-bbc-news-ccmain", "warc-news18-ccnews"].map((d) => join(rawDir, d));
const present = samples.every((d) => existsSync(d));
if (!present) console.warn(`WARC sample tests skipped: ${samples.join(", ")} not all found`);

const H = 3_600_000;
const CRAWL = "2024-03-01T12:00:00Z";
const crawl = Date.parse(CRAWL);

describe("publish clock (data.md)", () => {
  it("keeps a self-reported time the crawl corroborates within 2 h, else crawl − 2 h", () => {
    expect(publishClock(crawl, crawl - 30 * 60_000)).toEqual({ t: crawl - 30 * 60_000, source: "self" });
    expect(publishClock(crawl, crawl - 2 * H)).toEqual({ t: crawl - 2 * H, source: "self" });
    expect(publishClock(crawl, crawl - 2 * H - 1)).toEqual({ t: crawl - 2 * H, source: "crawl" });
    expect(publishClock(crawl, crawl - 72 * H)).toEqual({ t: crawl - 2 * H, source: "crawl" });
    expect(publishClock(crawl, crawl + 3 * H)).toEqual({ t: crawl - 2 * H, source: "crawl" });
    expect(publishClock(crawl, null)).toEqual({ t: crawl - 2 * H, source: "crawl" });
  });
});

const para = (seed: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${seed} report paragraph ${i}: officials said the ${seed} measure number ${i * 7} would take effect after the vote, according to people familiar with the matter.</p>`,
  ).join("\n");

function page(title: string, body: string, published?: string): string {
  return `<!doctype html><html><head><title>${title} | Example News</title>${
    published ? `<meta property="article:published_time" content="${published}">` : ""
  }</head><body><nav>Home World Business</nav><article><h1>${title}</h1>${body}</article><footer>© Example</footer></body></html>`;
}

async function record(
  url: string,
  html: string,
  opts: { status?: string; type?: string; date?: string; warcType?: string } = {},
) {
  const rec = WARCRecord.create(
    {
      url,
      date: opts.date ?? CRAWL,
      type: (opts.warcType ?? "response") as "response",
      warcVersion: "WARC/1.0",
      statusline: opts.status ?? "HTTP/1.1 200 OK",
      httpHeaders: { "Content-Type": opts.type ?? "text/html; charset=utf-8" },
    },
    [new TextEncoder().encode(html)],
  );
  return WARCSerializer.serialize(rec, { gzip: false });
}

const bodyA = para("tariff", 8);
async function fixture(): Promise<Buffer> {
  const recs = [
    await record("https://news.example/a", page("Tariff vote passes", bodyA, "2024-03-01T11:30:00Z")),
    await record("https://news.example/b", page("Harbour reopens", para("harbour", 8), "2024-02-27T09:00:00Z")),
    await record("https://news.example/a", page("Tariff vote passes", bodyA, "2024-03-01T11:30:00Z")),
    await record("https://mirror.example/a-copy", page("Tariff vote passes", bodyA.replace("paragraph 3", "para 3"))),
    await record("https://news.example/missing", "<html>gone</html>", { status: "HTTP/1.1 404 Not Found" }),
    await record("https://news.example/logo.png", "PNG", { type: "image/png" }),
    await record("https://news.example/short", page("Short", "<p>Too short.</p>")),
  ];
  return Buffer.concat(recs.map((r) => Buffer.from(r)));
}

describe("importWarcNews (fixture written by warcio's WARCSerializer)", () => {
  let root: string;
  let plain: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "warc-"));
    plain = join(root, "news.warc");
    writeFileSync(plain, await fixture());
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("extracts articles, applies the publish clock, and de-duplicates by URL and MinHash", async () => {
    const out = join(root, "w");
    const r = await importWarcNews([plain], out, { name: "n" });
    expect(r.counts).toMatchObject({
      records: 7,
      responses: 7,
      skipped_non_200: 1,
      skipped_non_html: 1,
      duplicate_url: 1,
      near_duplicate: 1,
      clock_self_reported: 1,
      clock_crawl_minus_2h: 1,
      lf_repaired_records: 0,
      damaged_records: 0,
    });
    expect(r.imported).toBe(2);
    expect(r.rejected.map((x) => [x.line, x.reason])).toEqual([
      [3, 'duplicate url "https://news.example/a" (the first is kept)'],
      [4, "near-duplicate of https://news.example/a (MinHash similarity ≥ 0.8)"],
      [7, "article text: fewer than 200 characters of article text"],
    ]);
    const w = WorldStore.open(out);
    const rows = w.db.prepare("SELECT url, domain, title, published_at, visible_at FROM news ORDER BY url").all();
    expect(rows).toEqual([
      {
        url: "https://news.example/a",
        domain: "news.example",
        title: "Tariff vote passes | Example News",
        published_at: crawl - 30 * 60_000,
        visible_at: crawl - 30 * 60_000,
      },
      {
        url: "https://news.example/b",
        domain: "news.example",
        title: "Harbour reopens | Example News",
        published_at: crawl - 2 * H,
        visible_at: crawl - 2 * H,
      },
    ]);
    const text = (w.db.prepare("SELECT text FROM news WHERE url = 'https://news.example/a'").get() as { text: string })
      .text;
    expect(text).toMatch(/^tariff report paragraph 0: officials said/);
    expect(text).not.toMatch(/Home World Business|© Example/);
    w.close();
  });

  it("reads the same file gzipped, and with every CR stripped (LF-only damage), to the same articles", async () => {
    const { gzipSync } = await import("node:zlib");
    const gz = join(root, "news.warc.gz");
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const lf = join(root, "lf.warc");
    writeFileSync(lf, Buffer.from(readFileSync(plain).toString("latin1").replaceAll("\r", ""), "latin1"));
    const a = await importWarcNews([gz], join(root, "wgz"), { name: "g" });
    const b = await importWarcNews([lf], join(root, "wlf"), { name: "l" });
    for (const r of [a, b]) expect(r.imported).toBe(2);
    expect(b.counts.lf_repaired_records).toBe(7);
    const pick = (d: string) => {
      const w = WorldStore.open(d);
      const rows = w.db.prepare("SELECT id, text, published_at FROM news ORDER BY id").all();
      w.close();
      return rows;
    };
    expect(pick(join(root, "wlf"))).toEqual(pick(join(root, "wgz")));
  });

  it("rejects a record the file cuts short (in its headers or its block), keeping the records before it", async () => {
    const whole = readFileSync(plain);
    const lastStart = whole.lastIndexOf("WARC/1.0\r\n");
    for (const [at, reason] of [
      // inside the WARC headers, after WARC-Type (a cut before it leaves no response record to reject)
      [
        whole.indexOf("Content-Type: application/http", lastStart) - lastStart + 5,
        "framing: the file ends inside the record's headers",
      ],
      [whole.length - lastStart - 50, "framing: the file ends 46 bytes before the declared Content-Length"],
    ] as const) {
      const cut = join(root, `cut${at}.warc`);
      writeFileSync(cut, whole.subarray(0, lastStart + at));
      const r = await importWarcNews([cut], join(root, `wcut${at}`), { name: "c" });
      expect(r.imported).toBe(2);
      expect(r.rejected.at(-1)).toEqual({ file: cut, line: 7, reason });
      expect(r.counts.damaged_records).toBe(1);
    }
  });

  it("refuses an input with no response record and leaves no world", async () => {
    const f = join(root, "info.warc");
    writeFileSync(f, await record("https://news.example/", "x", { warcType: "request", type: "application/http" }));
    const out = join(root, "none");
    await expect(importWarcNews([f], out, { name: "x" })).rejects.toThrow(/the input holds no HTML response records/);
    expect(existsSync(out)).toBe(false);
  });
});

describe.skipIf(!present)("importWarcNews on the real WARC samples", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "warc-real-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("CC-MAIN .warc.gz (strict golden file): 50 records, 16 HTML responses, 11 articles", async () => {
    const r = await importWarcNews([join(samples[0] as string, "warcfile.warc.gz")], join(root, "cc"), { name: "cc" });
    expect(r.counts).toMatchObject({
      records: 50,
      responses: 16,
      skipped_records: 34,
      damaged_records: 0,
      lf_repaired_records: 0,
    });
    expect(r.imported).toBe(11);
    // four pages with under 200 characters of text; record 30 is a second rider page of the same
    // statistics template as an earlier one (near-duplicate text)
    expect(r.rejected.map((x) => x.line)).toEqual([9, 24, 30, 42, 48]);
    expect(r.rejected[2]?.reason).toBe(
      "near-duplicate of http://06.live-radsport.ch/fahrerstatistik_801/Anthony_Ravard.html (MinHash similarity ≥ 0.8)",
    );
  });

  it("BBC captures with CRs stripped: headers repaired, framing exact, crawl − 2 h clock, the re-capture a duplicate URL", async () => {
    const files = ["www_bbc_co_uk_news@1550a8b.warc", "www_bbc_co_uk_news@d4b34cc.warc"].map((f) =>
      join(samples[1] as string, f),
    );
    const r = await importWarcNews(files, join(root, "bbc"), { name: "bbc" });
    expect(r.counts).toMatchObject({
      records: 2,
      lf_repaired_records: 2,
      damaged_records: 0,
      clock_crawl_minus_2h: 1,
      duplicate_url: 1,
    });
    expect(r.imported).toBe(1);
    const w = WorldStore.open(join(root, "bbc"));
    expect(w.db.prepare("SELECT url, published_at FROM news ORDER BY published_at").all()).toEqual([
      { url: "https://www.bbc.co.uk/news", published_at: Date.parse("2021-11-28T22:07:54Z") - 2 * H },
    ]);
    w.close();
  });

  it("news18 CC-NEWS record with a re-encoded payload: rejected for its framing, so no world", async () => {
    const out = join(root, "n18");
    const e = await importWarcNews(
      ["test-request.warc", "test-valid-response.warc"].map((f) => join(samples[2] as string, f)),
      out,
      { name: "n18" },
    ).catch((x) => x);
    expect(e).toBeInstanceOf(ImportRefusedError);
    expect((e as ImportRefusedError).rejected).toEqual([
      {
        file: join(samples[2] as string, "test-valid-response.warc"),
        line: 1,
        reason:
          "framing: 170340 bytes between the declared Content-Length and the next record (payload re-encoded or truncated header?)",
      },
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
