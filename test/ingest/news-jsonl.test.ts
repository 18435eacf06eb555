import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { importNewsJsonl, parsePublishedAt, urlDomain, urlId } from "../../src/ingest/news-jsonl.js";
import { WorldStore } from "../../src/world/world-store.js";
import { workDir } from "../world/world-fixtures.js";

const work = workDir("relive-ingest-test-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LINES = [
  /* 1 */ JSON.stringify({
    url: "https://www.example.com/a",
    title: "Oil jumps",
    text: "Oil prices jumped.",
    published_at: "2025-03-01T10:00:00Z",
  }),
  /* 2 */ JSON.stringify({
    id: "b",
    url: "https://news.test/b",
    title: "Rates",
    body: "Central bank holds rates.",
    published_at: 1740823200,
  }),
  /* 3 */ "{not json",
  /* 4 */ JSON.stringify({ url: "https://news.test/c", title: "No body", published_at: "2025-03-01" }),
  /* 5 */ "",
  /* 6 */ JSON.stringify({
    url: "https://www.example.com/a",
    title: "Oil jumps again",
    text: "dup",
    published_at: "2025-03-02T00:00:00Z",
  }),
  /* 7 */ JSON.stringify({ url: "https://news.test/d", title: "Bad date", text: "x", published_at: "March 1st" }),
  /* 8 */ JSON.stringify({ url: "ftp://news.test/e", title: "Bad url", text: "x", published_at: "2025-03-01" }),
  /* 9 */ JSON.stringify({
    url: "https://news.test/f",
    title: "Local time",
    text: "Storm warning issued.",
    published_at: "2025-03-01 12:30",
    domain: "Custom.test",
  }),
  /* 10 */ JSON.stringify({
    id: "b",
    url: "https://news.test/g",
    title: "Dup id",
    text: "x",
    published_at: 1740823200000,
  }),
];

describe("importNewsJsonl", () => {
  it("accepts valid rows, reports rejected rows with file:line and reason, records the source", async () => {
    const file = join(work, "news.jsonl");
    const content = `${LINES.join("\n")}\n`;
    writeFileSync(file, content);
    const target = join(work, "world");
    const res = await importNewsJsonl([file], target, { name: "jsonl-test" });
    expect(res.accepted).toBe(3);
    expect(res.rejected.map((r) => [r.line, r.file])).toEqual([
      [3, file],
      [4, file],
      [6, file],
      [7, file],
      [8, file],
      [10, file],
    ]);
    const reasons = res.rejected.map((r) => r.reason);
    expect(reasons[0]).toMatch(/^invalid JSON: /);
    expect(reasons[1]).toBe('field "text": needs text or body');
    expect(reasons[2]).toBe('duplicate url "https://www.example.com/a" (the first occurrence is kept)');
    expect(reasons[3]).toBe('field "published_at": not an ISO 8601 date or epoch seconds/ms: "March 1st"');
    expect(reasons[4]).toBe('field "url": must be an http(s) URL');
    expect(reasons[5]).toBe('duplicate id "b" (the first occurrence is kept)');
    expect(res.manifest.sources).toEqual([
      { path: file, sha256: createHash("sha256").update(content).digest("hex"), rows: 3, rejected: 6 },
    ]);
    expect(res.manifest.streams.news).toBe(3);
    expect(res.manifest.builder).toBe("ingest/news-jsonl");
    const t1 = Date.UTC(2025, 2, 1, 10);
    const t9 = Date.UTC(2025, 2, 1, 12, 30);
    expect(res.manifest.window).toEqual({ start: Math.min(t1, 1740823200000), end: t9 });
    expect(readdirSync(work).sort()).toEqual(["news.jsonl", "world"]);

    const w = WorldStore.open(target);
    const v = w.at(() => Date.UTC(2026, 0, 1));
    const a = v.news.get(urlId("https://www.example.com/a"));
    expect(a).toMatchObject({
      domain: "example.com",
      title: "Oil jumps",
      text: "Oil prices jumped.",
      published_at: t1,
      visible_at: t1,
    });
    expect(v.news.get("b")).toMatchObject({ text: "Central bank holds rates.", published_at: 1740823200000 });
    const f = v.news.search("storm").hits;
    expect(f).toMatchObject([{ domain: "Custom.test", published_at: t9 }]);
    w.close();
  });

  it("a row rejected for its id does not take its url: a later row with that url is accepted", async () => {
    const row = (o: Record<string, unknown>) =>
      JSON.stringify({ title: "T", text: "x", published_at: "2025-03-01T00:00:00Z", ...o });
    const file = join(work, "dup-id-url.jsonl");
    writeFileSync(
      file,
      `${[
        row({ id: "x", url: "https://news.test/1" }),
        row({ id: "x", url: "https://news.test/2" }), // duplicate id: rejected
        row({ url: "https://news.test/2" }), // its url is still free
        row({ url: "https://news.test/2" }), // now it is taken
      ].join("\n")}\n`,
    );
    const res = await importNewsJsonl([file], join(work, "dup-id-url"), { name: "dup-id-url" });
    expect(res.accepted).toBe(2);
    expect(res.rejected.map((r) => [r.line, r.reason])).toEqual([
      [2, 'duplicate id "x" (the first occurrence is kept)'],
      [4, 'duplicate url "https://news.test/2" (the first occurrence is kept)'],
    ]);
  });

  it("rejects rows outside a given window and never leaves a partial world on failure", async () => {
    const file = join(work, "win.jsonl");
    writeFileSync(file, `${LINES[8]}\n${LINES[0]}\n`);
    const res = await importNewsJsonl([file], join(work, "win"), {
      name: "w",
      window: { start: Date.UTC(2025, 2, 1, 11), end: Date.UTC(2025, 2, 2) },
    });
    expect(res.accepted).toBe(1);
    expect(res.rejected).toEqual([
      { line: 2, file, reason: 'field "published_at": 2025-03-01T10:00:00.000Z is outside the world window' },
    ]);
    await expect(importNewsJsonl([join(work, "missing.jsonl")], join(work, "never"), { name: "x" })).rejects.toThrow(
      /ENOENT/,
    );
    expect(existsSync(join(work, "never"))).toBe(false);
    expect(readdirSync(work).some((n) => n.startsWith("never"))).toBe(false);
    await expect(importNewsJsonl([file], join(work, "win"), { name: "w" })).rejects.toThrow(/already exists/);
    expect(JSON.parse(readFileSync(join(work, "win", "world.json"), "utf8")).streams.news).toBe(1);
  });

  it("refuses an empty input and one whose every row is rejected, writing nothing", async () => {
    const empty = join(work, "empty.jsonl");
    writeFileSync(empty, "\n\n");
    await expect(importNewsJsonl([empty], join(work, "e0"), { name: "e" })).rejects.toThrow(
      /nothing to import: the input holds no articles/,
    );
    const bad = join(work, "bad.jsonl");
    writeFileSync(bad, '{"url":"ftp://x","title":"t","text":"b","published_at":0}\nnot json\n');
    const e = await importNewsJsonl([bad], join(work, "e1"), { name: "e" }).catch((x) => x);
    expect(e).toBeInstanceOf(ImportRefusedError);
    expect((e as ImportRefusedError).rejected.map((r) => r.line)).toEqual([1, 2]);
    expect(existsSync(join(work, "e0")) || existsSync(join(work, "e1"))).toBe(false);
  });

  it("reads CRLF files and a last line without a newline", async () => {
    const file = join(work, "crlf.jsonl");
    writeFileSync(file, `${LINES[0]}\r\n\r\n${LINES[1]}\r\n${LINES[8]}`);
    const res = await importNewsJsonl([file], join(work, "crlf"), { name: "crlf" });
    expect(res.accepted).toBe(3);
    expect(res.rejected).toEqual([]);
  });

  it("derives the domain from the URL host", () => {
    expect(urlDomain("https://www.Example.com/a?b")).toBe("example.com");
    expect(urlDomain("http://news.test:8080/x")).toBe("news.test");
    expect(urlDomain("https://user@host.test/x")).toBe("host.test");
    expect(urlDomain("https://bücher.de/x")).toBe("xn--bcher-kva.de");
    expect(urlDomain("https://")).toBeNull();
  });

  it("parses ISO dates (no zone = UTC, numeric offsets) and epoch seconds or milliseconds", () => {
    expect(parsePublishedAt("2025-03-01")).toBe(Date.UTC(2025, 2, 1));
    expect(parsePublishedAt("2025-03-01T10:00:00+0200")).toBe(Date.UTC(2025, 2, 1, 8));
    expect(parsePublishedAt("2025-03-01T10:00:00-05:00")).toBe(Date.UTC(2025, 2, 1, 15));
    expect(parsePublishedAt("2025-03-01T10:00:00.250")).toBe(Date.UTC(2025, 2, 1, 10, 0, 0, 250));
    expect(parsePublishedAt(1740823200)).toBe(1740823200000);
    expect(parsePublishedAt(1740823200123)).toBe(1740823200123);
    expect(parsePublishedAt("2025-13-01")).toBeNull();
    expect(parsePublishedAt(-5)).toBeNull();
  });
});
