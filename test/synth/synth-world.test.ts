import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { GENERATOR_VERSION } from "../../src/synth/generate.js";
import { ensureSynthWorld, SYNTH_BUILDER, synthWorldDir } from "../../src/synth/synth-world.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-06T00:00:00Z");
const cache = mkdtempSync(join(tmpdir(), "relive-synth-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, "world.json"), "utf8"));

describe("synthWorldDir", () => {
  it("names the directory by generator version, seed and window dates", () => {
    expect(synthWorldDir("/c", { seed: 3, start: START, end: END })).toBe(
      `/c/synth-${GENERATOR_VERSION}-s3-2026-03-01-2026-03-06`,
    );
    expect(synthWorldDir("/c", { seed: 3, start: START + 3_600_000, end: END })).not.toBe(
      synthWorldDir("/c", { seed: 3, start: START, end: END }),
    );
  });
});

describe("ensureSynthWorld", () => {
  const opts = { seed: 42, start: START, end: END };

  it("builds a complete world once and reuses it", () => {
    const msgs: string[] = [];
    const dir = ensureSynthWorld(cache, opts, (m) => msgs.push(m));
    expect(dir).toBe(synthWorldDir(cache, opts));
    const m1 = manifest(dir);
    expect(m1.builder).toBe(SYNTH_BUILDER);
    expect(m1.builder_version).toBe(GENERATOR_VERSION);
    expect(m1.window).toEqual({ start: START, end: END });
    for (const k of [
      "news",
      "market",
      "market_price",
      "reddit_post",
      "reddit_comment",
      "reddit_reveal",
      "candle",
      "filing",
      "xbrl_fact",
      "company",
      "question",
      "broker_event",
    ]) {
      expect(m1.streams[k]).toBeGreaterThan(0);
    }
    expect(msgs.some((x) => x.startsWith("generating"))).toBe(true);
    const db = new Database(join(dir, "truth.db"), { readonly: true });
    expect((db.prepare("SELECT count(*) AS n FROM breakpoint").get() as { n: number }).n).toBeGreaterThan(0);
    expect(
      (db.prepare("SELECT count(*) AS n FROM label WHERE kind = 't_det'").get() as { n: number }).n,
    ).toBeGreaterThan(0);
    db.close();

    const again: string[] = [];
    expect(ensureSynthWorld(cache, opts, (m) => again.push(m))).toBe(dir);
    expect(manifest(dir).built_at).toBe(m1.built_at);
    expect(manifest(dir).hash).toBe(m1.hash);
    expect(again).toEqual([]);
  });

  it("rebuilds a stale (other version) or partial directory", () => {
    const o2 = { seed: 43, start: START, end: END };
    const dir = synthWorldDir(cache, o2);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "world.json"),
      JSON.stringify({ builder: SYNTH_BUILDER, builder_version: "v0", window: { start: START, end: END } }),
    );
    ensureSynthWorld(cache, o2);
    expect(manifest(dir).builder_version).toBe(GENERATOR_VERSION);
    expect(existsSync(join(dir, "world.db"))).toBe(true);

    rmSync(join(dir, "world.json"));
    const rebuilt: string[] = [];
    ensureSynthWorld(cache, o2, (m) => rebuilt.push(m));
    expect(rebuilt.some((m) => m.startsWith("removing stale"))).toBe(true);
    expect(manifest(dir).builder_version).toBe(GENERATOR_VERSION);
  });

  it("a valid world of the same options finished meanwhile by another process is used, not overwritten", () => {
    // the world of the first test stands in for the one a parallel process finishes mid-build
    const done = ensureSynthWorld(cache, opts);
    const other = mkdtempSync(join(tmpdir(), "relive-synth-race-"));
    try {
      const target = synthWorldDir(other, opts);
      const msgs: string[] = [];
      const got = ensureSynthWorld(other, opts, (m) => {
        msgs.push(m);
        if (msgs.filter((x) => x.startsWith("inserted")).length === 1 && m.startsWith("inserted"))
          cpSync(done, target, { recursive: true });
      });
      expect(got).toBe(target);
      expect(msgs.at(-1)).toMatch(/built meanwhile by another process/);
      // the other process's world is kept as it is, and no temp dir is left
      expect(manifest(target)).toEqual(manifest(done));
      expect(readdirSync(other)).toEqual([target.slice(other.length + 1)]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
