/**
 * `relive data embed WORLD --endpoint URL --model PROVIDER:MODEL` against a loopback
 * OpenAI-compatible embedding server this test starts on 127.0.0.1 (a toy model: word counts in
 * 6 buckets). The command fills the world's embedding cache in batches and makes the vectors the
 * world's hybrid-search vectors; an endpoint failing half-way leaves the world's vectors as they
 * were (the batches already answered stay cached, so the next call sends only the rest); a world
 * without news is refused.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddingCache } from "../../src/world/endpoint-embedder.js";
import { article, buildTiny, d, harness, q } from "../tasks/open-forecast/fixtures.js";

const REPO = resolve(import.meta.dirname, "../..");
const DIM = 6;
const H = 3_600_000;

function toyEmbed(text: string): number[] {
  const v = new Array(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 0;
    for (const ch of w) h += ch.charCodeAt(0);
    v[h % DIM] += 1;
  }
  return v;
}

let server: Server;
let url = "";
const seen: { model: string; input: string[] }[] = [];
/** answer HTTP 500 from this request on (1-based), or never */
let failFrom = Number.POSITIVE_INFINITY;

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
      const b = JSON.parse(body) as { model: string; input: string[] };
      seen.push(b);
      if (seen.length >= failFrom) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "overloaded" } }));
        return;
      }
      const data = b.input.map((t, index) => ({ object: "embedding", index, embedding: toyEmbed(t) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, usage: { prompt_tokens: b.input.length * 3, total_tokens: 0 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

/** runs the CLI without blocking this process (the loopback server answers it) */
function relive(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(REPO, "bin/relive.js"), ...args], { cwd: REPO });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c) => {
      stdout += c;
    });
    p.stderr.on("data", (c) => {
      stderr += c;
    });
    // bin/relive.js notes a stale dist/ (a source checkout edited since its last build)
    p.on("close", (status) =>
      done({ status, stdout, stderr: stderr.replace(/^relive: src\/ changed since the last build.*\n/m, "") }),
    );
  });
}

const TITLES = ["alpha beta", "gamma delta", "alpha gamma", "epsilon", "beta beta", "delta zeta", "alpha"];

function vecMeta(dir: string): Record<string, string> {
  const db = new Database(join(dir, "world.db"), { readonly: true });
  try {
    return Object.fromEntries(
      (
        db.prepare("SELECT key, value FROM world_meta WHERE key LIKE 'news_vec%'").all() as {
          key: string;
          value: string;
        }[]
      ).map((x) => [x.key, x.value]),
    );
  } finally {
    db.close();
  }
}

describe("relive data embed", () => {
  it("fills the world's embedding cache in batches and makes the endpoint vectors its search vectors; a failure changes nothing", async () => {
    const dir = buildTiny({
      questions: [q("q1", d(0), d(5))],
      news: TITLES.map((t, i) => article(i + 1, d(0) + (i + 1) * 6 * H, t, `${t} story`)),
    });
    const before = vecMeta(dir);
    expect(before.news_vec_embedder).not.toMatch(/^endpoint:/);
    const args = [
      "data",
      "embed",
      dir,
      "--endpoint",
      url,
      "--model",
      "openai:text-embedding-3-small",
      "--batch-size",
      "3",
    ];

    // the endpoint fails on its second request: exit 1 naming it, the world's vectors untouched, batch 1 cached
    seen.length = 0;
    failFrom = 2;
    const failed = await relive(...args);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(`embedding endpoint ${url}/embeddings: HTTP 500`);
    expect(vecMeta(dir)).toEqual(before);
    expect(seen.map((s) => s.input.length)).toEqual([3, 3]);

    // again with the endpoint well: only the texts not cached yet are sent, in batches of 3
    seen.length = 0;
    failFrom = Number.POSITIVE_INFINITY;
    const ok = await relive(...args);
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(
      'embedded 7 articles of world "of-test" with openai:text-embedding-3-small (6 dimensions): 2 request(s) sent, the rest from the cache; queries priced at $0.02 per million tokens\n',
    );
    expect(seen.map((s) => s.input.length)).toEqual([3, 1]);
    // the endpoint is sent the model's own name, without relive's provider prefix
    expect(new Set(seen.map((s) => s.model))).toEqual(new Set(["text-embedding-3-small"]));
    expect(vecMeta(dir)).toMatchObject({
      news_vec_embedder: `endpoint:text-embedding-3-small:${DIM}`,
      news_vec_endpoint: url,
      news_vec_model: "text-embedding-3-small",
      news_vec_usd_per_mtok: "0.02",
      news_vec_rows: "7",
    });
    const cache = new EmbeddingCache(dir);
    for (const t of TITLES)
      expect([...cache.get("text-embedding-3-small", `${t}\n${t} story`)!.vector]).toEqual(
        toyEmbed(`${t}\n${t} story`),
      );
    cache.close();

    // a third time: everything comes from the cache
    seen.length = 0;
    const again = await relive(...args);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("0 request(s) sent");
    expect(seen).toEqual([]);

    // the world's search now embeds its queries at the same endpoint and model, priced per token
    const h = harness(dir, { now: d(1) });
    try {
      const r = await h.call("search_news", { query: "alpha gamma" });
      expect(r.ok).toBe(true);
      expect(seen).toEqual([{ model: "text-embedding-3-small", input: ["alpha gamma"], encoding_format: "float" }]);
      expect(h.wallet.spent).toBeCloseTo(0.002 + (3 * 0.02) / 1e6, 15);
    } finally {
      h.close();
    }
  }, 300_000);

  it("refuses a world without news and a model without an embeddings price, naming them (exit 2)", async () => {
    const empty = buildTiny({ questions: [q("q1", d(0), d(5))] });
    const r = await relive("data", "embed", empty, "--endpoint", url, "--model", "local:toy");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`world "of-test" (${empty}) has no news articles to embed`);
    const dir = buildTiny({ questions: [q("q1", d(0), d(5))], news: [article(1, d(0) + H, "alpha", "alpha story")] });
    const p = await relive("data", "embed", dir, "--endpoint", url, "--model", "openai:no-such-embedder");
    expect(p.status).toBe(2);
    expect(p.stderr).toContain('--model: embedding model "openai:no-such-embedder" has no price');
  }, 300_000);
});
