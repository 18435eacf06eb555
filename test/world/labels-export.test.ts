/** Label-only export of a generic JSONL news world and its rebuild from the raw files to the same hash. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importNewsJsonl } from "../../src/ingest/news-jsonl.js";
import { rebuildWorld } from "../../src/ingest/rebuild-world.js";
import { exportLabelsOnly, readLabelsExport } from "../../src/world/labels-export.js";
import { readWorldManifest } from "../../src/world/world-store.js";

const REPO = resolve(import.meta.dirname, "../..");
const relive = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

const ARTICLES = [
  {
    url: "https://a.test/1",
    title: "Secret Title One",
    text: "Body text alpha.",
    published_at: "2026-03-01T08:00:00Z",
  },
  { url: "https://b.test/2", title: "Secret Title Two", body: "Body text beta.", published_at: "2026-03-01T09:30:00Z" },
  {
    id: "own-3",
    url: "https://a.test/3",
    title: "Secret Title Three",
    text: "Body text gamma.",
    published_at: 1772380800,
  },
];

/** a raw folder with two JSONL files as pulled (one with a bad row and a duplicate url) */
function rawFolder(): { raw: string; files: string[] } {
  const raw = mkdtempSync(join(tmpdir(), "relive-raw-"));
  mkdirSync(join(raw, "news"));
  const a = join(raw, "news", "day1.jsonl");
  const b = join(raw, "day2.jsonl");
  writeFileSync(a, `${JSON.stringify(ARTICLES[0])}\n${JSON.stringify(ARTICLES[1])}\n{"url": 3}\n`);
  writeFileSync(b, `${JSON.stringify(ARTICLES[2])}\n${JSON.stringify(ARTICLES[0])}\n`);
  return { raw, files: [a, b] };
}

const tmp = (p: string) => join(mkdtempSync(join(tmpdir(), `relive-${p}-`)), p);

describe("label-only world export", () => {
  it("writes ids, timestamps and labels only; the manifest keeps the source checksums", async () => {
    const { files } = rawFolder();
    const world = tmp("world");
    await importNewsJsonl(files, world, { name: "tiny-news" });
    const out = tmp("export");
    const r = exportLabelsOnly(world, out);
    expect(r.rows).toBe(3);
    expect(readdirSync(out).sort()).toEqual(["export.json", "streams", "truth", "world.json"]);
    const lines = readFileSync(join(out, "streams", "news.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => Object.keys(l).sort())).toEqual(
      Array(3).fill(["domain", "id", "published_at", "visible_at"]),
    );
    expect(lines.map((l) => l.id)).toContain("own-3");
    const all = readdirSync(join(out, "streams"))
      .map((f) => readFileSync(join(out, "streams", f), "utf8"))
      .join("");
    for (const text of ["Secret", "Body text", "https://"]) expect(all).not.toContain(text);
    const { manifest, meta } = readLabelsExport(out);
    expect(manifest).toEqual(readWorldManifest(world));
    expect(manifest.sources.map((s) => [s.rows, s.rejected])).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect(meta.omitted.news).toEqual(["url", "title", "text"]);
    expect(() => exportLabelsOnly(world, out)).toThrow(/already exists/);
  });

  it("rebuilds from the raw files to the same world hash; a changed or missing file is refused, naming it", async () => {
    const { files } = rawFolder();
    const world = tmp("world");
    const original = (await importNewsJsonl(files, world, { name: "tiny-news" })).manifest;
    const out = tmp("export");
    exportLabelsOnly(world, out);
    // the raw files as pulled into another folder layout: found by name
    const pulled = mkdtempSync(join(tmpdir(), "relive-pulled-"));
    mkdirSync(join(pulled, "x", "y"), { recursive: true });
    writeFileSync(join(pulled, "x", "y", "day1.jsonl"), readFileSync(files[0]!));
    writeFileSync(join(pulled, "day2.jsonl"), readFileSync(files[1]!));
    const target = tmp("rebuilt");
    const r = await rebuildWorld(out, pulled, target);
    expect(r.manifest.hash).toBe(original.hash);
    expect(readWorldManifest(target).window).toEqual(original.window);

    writeFileSync(join(pulled, "day2.jsonl"), `${JSON.stringify(ARTICLES[2])}\n`);
    const t2 = tmp("rebuilt");
    await expect(rebuildWorld(out, pulled, t2)).rejects.toThrow(
      /day2\.jsonl: .* has sha256 [0-9a-f]{64}, the world was built from/,
    );
    expect(existsSync(t2)).toBe(false);
    await expect(rebuildWorld(out, mkdtempSync(join(tmpdir(), "relive-empty-")), t2)).rejects.toThrow(
      /day1\.jsonl: not found under .*\n {2}- day2\.jsonl: not found/,
    );
  });

  it("`relive data export --labels-only` then `relive data rebuild --raw` give back the same hash", async () => {
    const { raw, files } = rawFolder();
    const world = tmp("world");
    const original = (await importNewsJsonl(files, world, { name: "tiny-news" })).manifest;
    const out = tmp("export");
    const e = relive("data", "export", world, "--labels-only", "-o", out);
    expect(e.stderr).not.toContain("error");
    expect(e.status).toBe(0);
    expect(e.stdout).toContain(`exported 3 label rows of world "tiny-news" (hash ${original.hash})`);
    const target = tmp("rebuilt");
    const b = relive("data", "rebuild", out, "--raw", raw, "-o", target);
    expect(b.status).toBe(0);
    expect(b.stdout).toContain(`hash ${original.hash} (matches the export)`);
    expect(readWorldManifest(target).hash).toBe(original.hash);
  }, 900_000);
});
