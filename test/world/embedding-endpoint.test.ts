/**
 * Hybrid search with an OpenAI-compatible embedding endpoint (issue 16 §3), against a loopback
 * server this test starts on 127.0.0.1: an independent imitation with quirks (items returned in
 * reverse `index` order, extra fields, integer components). Articles are embedded in batches and
 * cached in the world directory; queries are embedded asynchronously, priced by the price table's
 * embeddings row and booked with the search call; the date bound stays inside the query.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddingPrice } from "../../src/models/price-table.js";
import { EmbeddingCache, embedWorldNews } from "../../src/world/endpoint-embedder.js";
import { WorldStore } from "../../src/world/world-store.js";
import { article, buildTiny, d, harness, q } from "../tasks/open-forecast/fixtures.js";

const H = 3_600_000;
const DIM = 6;
const MODEL = "openai:text-embedding-3-small";

/** The toy model: one count per word in the bucket (sum of char codes mod 6); tokens = words. */
function toyEmbed(text: string): number[] {
  const v = new Array(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 0;
    for (const ch of w) h += ch.charCodeAt(0);
    v[h % DIM] += 1;
  }
  return v;
}
const words = (t: string) => (t.toLowerCase().match(/[a-z]+/g) ?? []).length;

let server: Server;
let url = "";
const seen: string[][] = [];
let mode: "ok" | "drop-one" = "ok";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end("not found");
        return;
      }
      const { input } = JSON.parse(body) as { model: string; input: string[] };
      seen.push(input);
      const data = input.map((t, index) => ({ object: "embedding", index, embedding: toyEmbed(t) }));
      if (mode === "drop-one") data.pop();
      data.reverse(); // quirk: out-of-order items
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          model: "toy",
          data,
          usage: { prompt_tokens: input.reduce((s, t) => s + words(t), 0), total_tokens: 0 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

function world() {
  const titles = ["alpha beta", "gamma delta", "alpha gamma", "epsilon", "beta beta", "delta zeta", "alpha"];
  return buildTiny({
    questions: [q("q1", d(0), d(5))],
    news: titles.map((t, i) => article(i + 1, d(0) + (i + 1) * 6 * H, t, `${t} story`)),
  });
}

describe("embedding endpoint for hybrid search", () => {
  it("embeds a world's articles in batches through the world's cache; re-embedding sends nothing", async () => {
    const dir = world();
    const price = embeddingPrice(MODEL);
    expect(price).toBe(0.02);
    seen.length = 0;
    const r = await embedWorldNews(dir, { endpoint: { baseURL: url, model: MODEL, batchSize: 3 }, usdPerMtok: price });
    expect(r).toEqual({ rows: 7, requests: 3, dim: DIM });
    expect(seen.map((s) => s.length)).toEqual([3, 3, 1]);
    // each text got its own vector although the server answers in reverse index order
    const cache = new EmbeddingCache(dir);
    for (const t of ["alpha beta", "gamma delta", "epsilon", "delta zeta"]) {
      const text = `${t}\n${t} story`;
      expect([...cache.get(MODEL, text)!.vector]).toEqual(toyEmbed(text));
    }
    cache.close();
    const db = new Database(`${dir}/world.db`, { readonly: true });
    const meta = Object.fromEntries(
      (
        db.prepare("SELECT key, value FROM world_meta WHERE key LIKE 'news_vec%'").all() as {
          key: string;
          value: string;
        }[]
      ).map((x) => [x.key, x.value]),
    );
    db.close();
    expect(meta).toMatchObject({
      news_vec_embedder: `endpoint:${MODEL}:${DIM}`,
      news_vec_dim: "6",
      news_vec_rows: "7",
      news_vec_endpoint: url,
      news_vec_model: MODEL,
      news_vec_usd_per_mtok: "0.02",
    });
    seen.length = 0;
    expect(await embedWorldNews(dir, { endpoint: { baseURL: url, model: MODEL }, usdPerMtok: price })).toEqual({
      rows: 7,
      requests: 0,
      dim: DIM,
    });
  });

  it("search_news embeds the query asynchronously (cached), books its tokens at the embeddings price, keeps the date bound", async () => {
    const dir = world();
    await embedWorldNews(dir, { endpoint: { baseURL: url, model: MODEL }, usdPerMtok: embeddingPrice(MODEL) });
    const h = harness(dir, { now: d(1) });
    try {
      seen.length = 0;
      const r = await h.call("search_news", { query: "alpha gamma" });
      expect(seen).toEqual([["alpha gamma"]]);
      expect(r.ok).toBe(true);
      const hits = (r as { value: { results: { id: string; published_at: string }[] } }).value.results;
      // published by d(1) (24 h): articles 1-4; the vector half ranks only those
      expect(hits.length).toBeGreaterThan(0);
      for (const x of hits) expect(Date.parse(x.published_at)).toBeLessThanOrEqual(d(1));
      expect(hits.map((x) => x.id)).toContain("n3");
      const once = 0.002 + (2 * 0.02) / 1e6;
      expect(h.wallet.spent).toBeCloseTo(once, 15);
      // a repeated query: the cache answers (no request), the same tokens are booked again
      await h.call("search_news", { query: "alpha gamma" });
      expect(seen).toHaveLength(1);
      expect(h.wallet.spent).toBeCloseTo(2 * once, 15);
    } finally {
      h.close();
    }
    // a world with endpoint vectors has no synchronous query embedder
    const ws = WorldStore.open(dir);
    try {
      const view = ws.at(() => d(1));
      expect(() => view.news.hybridSearch("alpha")).toThrow(/query vectors come from the embedding endpoint/);
      const qv = await ws.queryEmbedder()!.embedQuery("alpha");
      const res = view.news.hybridSearch("alpha", { queryVector: qv.vector });
      expect(res.hits.map((x) => x.id)).toEqual(expect.arrayContaining(["n1", "n3"]));
      expect(res.hits.every((x) => x.published_at <= d(1))).toBe(true);
    } finally {
      ws.close();
    }
  });

  it("a response missing an item is an error naming the endpoint", async () => {
    const dir = world();
    mode = "drop-one";
    try {
      await expect(
        embedWorldNews(dir, { endpoint: { baseURL: url, model: "other-model", batchSize: 4 }, usdPerMtok: 0 }),
      ).rejects.toThrow(`embedding endpoint ${url}/embeddings: no vector for input`);
    } finally {
      mode = "ok";
    }
  });
});
