import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { runPull } from "../../../src/ingest/pull/run-pull.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";
import { type ReplayServer, startReplayServer } from "./replay-server.js";

/**
 * CC-NEWS and Arctic Shift pulls against loopback servers. REAL payloads: the CC-NEWS WARC record
 * of raw/warc-news18-ccnews (gzipped here as a one-member .warc.gz, as CC-NEWS files are) and the
 * Arctic Shift 2024-02 submission and comment objects of raw/reddit-arcticshift-pushshift-importer.
 * Written from the DOCUMENTED shapes (no sample exists): the gzipped `warc.paths.gz` listing and the
 * `{data: [...]}` envelope of the Arctic Shift search API.
 */
const RAW = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const have =
  existsSync(join(RAW, "warc-news18-ccnews")) && existsSync(join(RAW, "reddit-arcticshift-pushshift-importer"));
if (!have) console.warn(`skipping the CC-NEWS/Arctic Shift pull replays: ${RAW} not found`);
const raw = (p: string) => (have ? readFileSync(join(RAW, p)) : Buffer.alloc(0));
const fast = { backoffMs: 0, retries: 1 };

let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
const out = () => mkdtempSync(join(tmpdir(), "relive-pull-n-"));

describe.skipIf(!have)("relive data pull cc-news", () => {
  it("lists the month, keeps the files in [from, to), streams them; a cut download continues with a Range request", async () => {
    const warc = gzipSync(raw("warc-news18-ccnews/test-valid-response.warc"));
    const paths = [
      "crawl-data/CC-NEWS/2022/04/CC-NEWS-20220401120000-00101.warc.gz",
      "crawl-data/CC-NEWS/2022/04/CC-NEWS-20220401135123-00102.warc.gz",
      "crawl-data/CC-NEWS/2022/04/CC-NEWS-20220402090000-00103.warc.gz",
    ];
    server = await startReplayServer({
      "/crawl-data/CC-NEWS/2022/04/warc.paths.gz": { body: gzipSync(`${paths.join("\n")}\n`) },
      // the first answer breaks off after 1000 bytes; later ones serve Range requests
      [`/${paths[1]}`]: (_req, n) => (n === 1 ? { body: warc, cut: 1000, range: true } : { body: warc, range: true }),
    });
    const dir = out();
    const o = { outDir: dir, baseUrls: { data: server.url }, http: fast, rate: 1000 };
    const args = { month: ["2022-04"], from: "2022-04-01T13:00:00Z", to: "2022-04-02T00:00:00Z" };
    await expect(runPull("cc-news", args, o)).rejects.toThrow(
      /CC-NEWS-20220401135123-00102\.warc\.gz: the download broke off after 1000 bytes .*run the pull again to continue it/,
    );
    const file = join(dir, "cc-news/2022/04/CC-NEWS-20220401135123-00102.warc.gz");
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.part`).size).toBe(1000);
    const r = await runPull("cc-news", args, o);
    expect(r.counts).toMatchObject({ fetched: 1, skipped: 1 });
    const last = server.requests.at(-1)!;
    expect([last.url, last.headers.range]).toEqual([`/${paths[1]}`, "bytes=1000-"]);
    expect(readFileSync(file).equals(warc)).toBe(true);
    expect(gunzipSync(readFileSync(file)).subarray(0, 8).toString()).toBe("WARC/1.0");
    // only the file inside [from, to) was asked for
    expect(server.requests.filter((q) => q.url.endsWith(".warc.gz")).map((q) => q.url)).toEqual([
      `/${paths[1]}`,
      `/${paths[1]}`,
    ]);
  });

  it("a listing line that is not a CC-NEWS path of the month is refused with its line number", async () => {
    server = await startReplayServer({
      "/crawl-data/CC-NEWS/2022/05/warc.paths.gz": {
        body: gzipSync("crawl-data/CC-NEWS/2022/05/CC-NEWS-20220501000000-00001.warc.gz\n../../etc/passwd\n"),
      },
    });
    await expect(
      runPull(
        "cc-news",
        { month: ["2022-05"] },
        { outDir: out(), baseUrls: { data: server.url }, http: fast, rate: 1000 },
      ),
    ).rejects.toThrow(/warc\.paths\.gz: line 2 is not a CC-NEWS path of 2022-05/);
  });
});

describe("relive data pull arctic-shift", () => {
  const lines = (f: string) =>
    raw(f)
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; created_utc: number; _meta?: unknown })
      .filter((x) => x._meta !== undefined);

  it.skipIf(!have)("real Arctic Shift objects: one page, written as NDJSON exactly as served", async () => {
    const posts = lines("reddit-arcticshift-pushshift-importer/test_submissions.json");
    expect(posts).toHaveLength(10);
    const t = posts[0]!.created_utc;
    const url = `/api/posts/search?subreddit=all&after=${t}&before=${t + 3600}&limit=100&sort=asc`;
    server = await startReplayServer({ [url]: { body: JSON.stringify({ data: posts }) } });
    const dir = out();
    await runPull(
      "arctic-shift",
      { subreddit: ["all"], kind: "posts", after: String(t), before: String(t + 3600) },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 },
    );
    const got = readFileSync(join(dir, `arctic-shift/all/posts/${t}.ndjson`), "utf8")
      .split("\n")
      .filter(Boolean);
    expect(got.map((l) => JSON.parse(l))).toEqual(posts);
  });

  it("pages forward by created_utc and drops repeats (objects written from the documented shape)", async () => {
    const t0 = 1_706_745_600;
    const items = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, created_utc: t0 + i, title: `post ${i}` }));
    const before = t0 + 10;
    const q = (a: number) => `/api/posts/search?subreddit=all&after=${a}&before=${before}&limit=4&sort=asc`;
    // the server treats after as inclusive (the pull does not rely on either reading)
    const routes: Record<string, { body: string }> = {};
    for (let a = t0; a < before; a++)
      routes[q(a)] = { body: JSON.stringify({ data: items.filter((x) => x.created_utc >= a).slice(0, 4) }) };
    server = await startReplayServer(routes);
    const dir = out();
    const logs: string[] = [];
    await runPull(
      "arctic-shift",
      { subreddit: ["all"], kind: "posts", after: String(t0), before: String(before), limit: 4 },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000, log: (m) => logs.push(m) },
    );
    expect(server.requests.map((r) => r.url)).toEqual([q(t0), q(t0 + 2), q(t0 + 4), q(t0 + 6), q(t0 + 8)]);
    const ids = [t0, t0 + 2, t0 + 4, t0 + 6, t0 + 8].flatMap((a) =>
      readFileSync(join(dir, `arctic-shift/all/posts/${a}.ndjson`), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id),
    );
    expect(ids).toEqual(items.map((x) => x.id));
    expect(logs).toEqual([]);
    // more items in one second than a page holds: it moves on and says so
    const same = Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, created_utc: t0 }));
    server.routes.set(`/api/posts/search?subreddit=busy&after=${t0}&before=${before}&limit=4&sort=asc`, {
      body: JSON.stringify({ data: same.slice(0, 4) }),
    });
    server.routes.set(`/api/posts/search?subreddit=busy&after=${t0 + 1}&before=${before}&limit=4&sort=asc`, {
      body: JSON.stringify({ data: [] }),
    });
    await runPull(
      "arctic-shift",
      { subreddit: ["busy"], kind: "posts", after: String(t0), before: String(before), limit: 4 },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000, log: (m) => logs.push(m) },
    );
    expect(logs).toEqual([
      `arctic-shift: busy posts: a full page of 4 within seconds ${t0}–${t0}: items of second ${t0} beyond it may be missed (use a larger --limit)`,
    ]);
  });

  it.skipIf(!have)("comments too; a response without the data envelope is refused naming the URL", async () => {
    const comments = lines("reddit-arcticshift-pushshift-importer/test_comments.json");
    expect(comments).toHaveLength(10);
    const after = comments[0]!.created_utc;
    server = await startReplayServer({
      [`/api/comments/search?subreddit=all&after=${after}&before=${after + 86_400}&limit=100&sort=asc`]: {
        body: JSON.stringify({ data: comments }),
      },
      [`/api/posts/search?subreddit=all&after=${after}&before=${after + 86_400}&limit=100&sort=asc`]: {
        body: JSON.stringify(comments),
      },
    });
    const dir = out();
    const o = { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 };
    await runPull(
      "arctic-shift",
      { subreddit: ["all"], kind: "comments", after: String(after), before: String(after + 86_400) },
      o,
    );
    expect(
      readFileSync(join(dir, `arctic-shift/all/comments/${after}.ndjson`), "utf8")
        .split("\n")
        .filter(Boolean),
    ).toHaveLength(10);
    await expect(
      runPull(
        "arctic-shift",
        { subreddit: ["all"], kind: "posts", after: String(after), before: String(after + 86_400) },
        o,
      ),
    ).rejects.toThrow(/posts\/search\?subreddit=all.*: not an Arctic Shift search response/);
  });
});
