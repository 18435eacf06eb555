/** The recipe-world cache upkeep of `relive data gc`: killed builds' temp dirs, partial dirs, LRU eviction when asked. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { markLastUse } from "../../src/common/cache-upkeep.js";
import { gcRecipeWorlds } from "../../src/recipes/recipe-gc.js";
import { ensureRealWorld } from "../../src/run/world-resolver.js";
import { RAW_DIR } from "../run/helpers.js";

const REPO = resolve(import.meta.dirname, "../..");
const D = (s: string) => Date.parse(`${s}T00:00:00Z`);
const KEY = "0123456789abcdef";
const MURPHY = join(RAW_DIR, "edgar-submissions-murphy-raw/CIK0000717423.json");
const HAVE_MURPHY = existsSync(MURPHY);
if (!HAVE_MURPHY) console.warn(`skipping the recipe-world last-use test: ${MURPHY} not found`);

function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

/** a fake recipe world `<cache>/worlds/<name>-<key>` (gc reads names, world.json mtimes, recipe-build.json, sizes) */
function fakeWorld(cache: string, name: string, usedAt: number, bytes: number): string {
  const dir = join(cache, "worlds", `${name}-${KEY}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "world.db"), Buffer.alloc(bytes));
  writeFileSync(
    join(dir, "recipe-build.json"),
    JSON.stringify({
      recipe_file: `/recipes/${name}.yaml`,
      name,
      key: KEY.repeat(4),
      content_key: KEY.repeat(4),
      importer: { family: "candles", builder: "b", version: "1" },
      inputs: [{ path: `${name}.csv`, sha256: "0".repeat(64) }],
      recipe: {},
    }),
  );
  writeFileSync(join(dir, "world.json"), "{}");
  utimesSync(join(dir, "world.json"), new Date(usedAt), new Date(usedAt));
  return dir;
}

function tempDir(cache: string, pid: number): string {
  const dir = join(cache, "worlds", `.tmp-w-${KEY}-${pid}-0a1b2c3d`);
  mkdirSync(join(dir, "world"), { recursive: true });
  writeFileSync(join(dir, "world", "world.db"), Buffer.alloc(200));
  return dir;
}

describe("recipe-world cache gc", () => {
  it("removes temp dirs of killed builds and partial dirs, keeps live builds' temps, evicts no world unless asked", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-recipe-gc-"));
    const dead = tempDir(cache, deadPid());
    const live = tempDir(cache, process.pid);
    const partial = join(cache, "worlds", `half-${KEY}`);
    mkdirSync(partial, { recursive: true });
    writeFileSync(join(partial, "world.db"), Buffer.alloc(10));
    const a = fakeWorld(cache, "a", D("2026-01-01"), 100);
    const r = gcRecipeWorlds(cache, null);
    expect(r.removed.map((x) => [x.kind, x.path])).toEqual([
      ["temp", dead],
      ["partial", partial],
    ]);
    expect(r.freed_bytes).toBe(200 + 10);
    expect(existsSync(dead) || existsSync(partial)).toBe(false);
    expect(existsSync(live) && existsSync(a)).toBe(true);
    expect(r.kept).toEqual([a]);
    expect(gcRecipeWorlds(join(cache, "nothing-here"), null)).toEqual({ removed: [], kept: [], freed_bytes: 0 });
  });

  it("with keep N evicts least recently used first, reporting each world's recipe and inputs; a cache hit renews a world", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-recipe-gc-"));
    const a = fakeWorld(cache, "a", D("2026-01-01"), 100);
    const b = fakeWorld(cache, "b", D("2026-01-03"), 300);
    const c = fakeWorld(cache, "c", D("2026-01-02"), 500);
    markLastUse(join(a, "world.json")); // a is now the most recent
    expect(statSync(join(a, "world.json")).mtimeMs).toBeGreaterThan(D("2026-01-03"));
    const r = gcRecipeWorlds(cache, 1);
    expect(r.kept).toEqual([a]);
    expect(r.removed.map((x) => [x.path, x.last_used, x.recipe_file, x.inputs])).toEqual([
      [c, "2026-01-02T00:00:00.000Z", "/recipes/c.yaml", ["c.csv"]],
      [b, "2026-01-03T00:00:00.000Z", "/recipes/b.yaml", ["b.csv"]],
    ]);
    expect(existsSync(b) || existsSync(c)).toBe(false);
    expect(() => gcRecipeWorlds(cache, -1)).toThrow(/keep/);
  });

  it("`relive data gc` cleans both caches; `--recipe-worlds 0` evicts recipe worlds and says what rebuilding needs", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-recipe-gc-"));
    const dead = tempDir(cache, deadPid());
    const w = fakeWorld(cache, "edgar-x", D("2026-01-01"), 1000);
    const gc = (...extra: string[]) =>
      spawnSync(process.execPath, [join(REPO, "bin/relive.js"), "data", "gc", "--cache", cache, ...extra], {
        encoding: "utf8",
        cwd: REPO,
      });
    const first = gc();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`removed temp dir of a killed recipe build ${dead} (0.0 MiB)`);
    expect(first.stdout).toContain("kept 0 synthetic world(s), 1 recipe world(s)");
    expect(existsSync(w)).toBe(true);
    const second = gc("--recipe-worlds", "0");
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(
      `removed recipe world ${w} (0.0 MiB, last used 2026-01-01T00:00:00.000Z; rebuilding it needs /recipes/edgar-x.yaml and its inputs edgar-x.csv)`,
    );
    expect(existsSync(w)).toBe(false);
    const bad = gc("--recipe-worlds", "-1");
    expect(bad.status).not.toBe(0);
  }, 900_000);

  it.skipIf(!HAVE_MURPHY)(
    "a run finding a recipe world in the cache renews its last use (the eviction order)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "relive-recipe-gc-"));
      writeFileSync(
        join(dir, "murphy.yaml"),
        `recipe: 1
name: gc-murphy-2022-08
window: { start: 2022-08-01, end: 2022-08-12 }
streams: [company, filing]
sources:
  - importer: edgar
    submissions: edgar-submissions-murphy-raw/CIK0000717423.json
`,
      );
      const loc = { cacheDir: join(dir, "cache"), rawDir: RAW_DIR };
      const w = ensureRealWorld(join(dir, "murphy.yaml"), loc);
      utimesSync(join(w, "world.json"), new Date(D("2026-01-01")), new Date(D("2026-01-01")));
      expect(ensureRealWorld(join(dir, "murphy.yaml"), loc)).toBe(w);
      expect(statSync(join(w, "world.json")).mtimeMs).toBeGreaterThan(D("2026-01-02"));
    },
    900_000,
  );
});
