import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathBytes, pidAlive } from "../common/cache-upkeep.js";
import { RECIPE_BUILD_JSON } from "../world/labels-export.js";
import { WORLD_JSON } from "../world/world-builder.js";
import { RecipeBuildRecord, recipeWorldsDir } from "./recipe-build.js";

/**
 * Upkeep of the recipe-world cache `<cache>/worlds/` (`relive data gc`): temp dirs of killed builds,
 * partial world dirs, and (asked for) least-recently-used eviction. ensureRecipeWorld builds in
 * `.tmp-<name>-<key16>-<pid>-<8 hex>` and removes it in a `finally`, so only a killed build leaves one.
 */
const TEMP_RE = /^\.tmp-.+-[0-9a-f]{16}-(\d+)-[0-9a-f]{8}$/;

export interface RecipeGcEntry {
  path: string;
  bytes: number;
  kind: "temp" | "partial" | "world";
  /** ISO time of the world's last use (world.json's mtime), worlds only */
  last_used: string | null;
  /** the recipe file that built an evicted world and its input files (rebuilding needs them) */
  recipe_file: string | null;
  inputs: string[];
}

export interface RecipeGcReport {
  removed: RecipeGcEntry[];
  /** world dirs kept, most recently used first */
  kept: string[];
  freed_bytes: number;
}

function buildRecord(dir: string): RecipeBuildRecord | null {
  try {
    const r = RecipeBuildRecord.safeParse(JSON.parse(readFileSync(join(dir, RECIPE_BUILD_JSON), "utf8")));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Cleans `<cacheDir>/worlds/`: removes temp dirs of builds whose process is gone (those of live
 * processes on this host are kept) and directories without a world.json (never a finished world:
 * a build renames a whole world into place); with `keep` a number, also evicts recipe worlds least
 * recently used first, keeping the `keep` most recent. Without `keep` no world is evicted: a recipe
 * world rebuilds only while its input files are still there (each evicted world's recipe and
 * inputs are reported).
 */
export function gcRecipeWorlds(cacheDir: string, keep: number | null): RecipeGcReport {
  if (keep !== null && (!Number.isInteger(keep) || keep < 0))
    throw new RangeError(`keep: expected a non-negative integer, got ${keep}`);
  const root = recipeWorldsDir(cacheDir);
  const removed: RecipeGcEntry[] = [];
  const remove = (path: string, kind: RecipeGcEntry["kind"], extra: Partial<RecipeGcEntry> = {}) => {
    const bytes = pathBytes(path);
    rmSync(path, { recursive: true, force: true });
    removed.push({ path, bytes, kind, last_used: null, recipe_file: null, inputs: [], ...extra });
  };
  const worlds: { path: string; used: number }[] = [];
  if (existsSync(root))
    for (const name of readdirSync(root).sort()) {
      const path = join(root, name);
      if (!lstatSync(path).isDirectory()) continue;
      const temp = TEMP_RE.exec(name);
      if (temp) {
        const pid = Number(temp[1]);
        if (pid !== process.pid && !pidAlive(pid)) remove(path, "temp");
        continue;
      }
      if (name.startsWith(".")) continue;
      const manifest = lstatSync(join(path, WORLD_JSON), { throwIfNoEntry: false });
      if (!manifest) remove(path, "partial");
      else worlds.push({ path, used: manifest.mtimeMs });
    }
  // most recently used first; ties by path so the order never depends on readdir
  worlds.sort((a, b) => b.used - a.used || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kept = keep === null ? worlds : worlds.slice(0, keep);
  for (const w of worlds.filter((x) => !kept.includes(x)).reverse()) {
    const rec = buildRecord(w.path);
    remove(w.path, "world", {
      last_used: new Date(w.used).toISOString(),
      recipe_file: rec?.recipe_file ?? null,
      inputs: rec?.inputs.map((i) => i.path) ?? [],
    });
  }
  return { removed, kept: kept.map((w) => w.path), freed_bytes: removed.reduce((s, r) => s + r.bytes, 0) };
}
