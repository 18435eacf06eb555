import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { readLabelsExport } from "../world/labels-export.js";
import type { WorldManifest } from "../world/types.js";
import { importNewsJsonl, NEWS_JSONL_BUILDER } from "./news-jsonl.js";

/** Builders `rebuildWorld` can re-run from raw files (the importers whose output depends only on the files and the name). */
export const REBUILDABLE_BUILDERS = [NEWS_JSONL_BUILDER] as const;

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** Every regular file under `dir` by base name (a name found twice is ambiguous: listed with all its paths). */
function filesByName(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(e.name, [...(out.get(e.name) ?? []), p]);
    }
  };
  walk(dir);
  return out;
}

/**
 * Finds each source file of `manifest` under `rawDir` (by base name, anywhere below it) and checks
 * its sha256 against the manifest; throws naming every missing or changed file.
 */
export async function locateSources(manifest: WorldManifest, rawDir: string): Promise<string[]> {
  if (!existsSync(rawDir) || !statSync(rawDir).isDirectory()) throw new Error(`--raw ${rawDir}: not a directory`);
  const byName = filesByName(rawDir);
  const problems: string[] = [];
  const found: string[] = [];
  for (const s of manifest.sources) {
    const name = basename(s.path);
    const candidates = byName.get(name) ?? [];
    const sums = await Promise.all(candidates.map(async (p) => ({ p, sum: await sha256File(p) })));
    const hit = sums.find((x) => x.sum === s.sha256);
    if (hit) found.push(hit.p);
    else if (candidates.length === 0) problems.push(`${name}: not found under ${rawDir}`);
    else
      problems.push(
        `${name}: ${candidates.join(", ")} has sha256 ${sums.map((x) => x.sum).join(", ")}, the world was built from ${s.sha256}`,
      );
  }
  if (problems.length)
    throw new Error(
      `cannot rebuild world "${manifest.name}" from ${rawDir}:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
  return found;
}

/**
 * Rebuilds the full world of a label-only export (`exportDir`) from the raw source files under
 * `rawDir` into `targetDir`: the sources are found by name and checked against the manifest's
 * checksums, the world's builder is re-run with the manifest's name and window, and the rebuilt
 * world's hash must equal the export's (else the rebuilt world is removed and the call throws).
 */
export async function rebuildWorld(
  exportDir: string,
  rawDir: string,
  targetDir: string,
): Promise<{ manifest: WorldManifest; files: string[] }> {
  const { manifest } = readLabelsExport(exportDir);
  if (!(REBUILDABLE_BUILDERS as readonly string[]).includes(manifest.builder))
    throw new Error(
      `world "${manifest.name}" was built by ${manifest.builder}; rebuild from raw files is implemented for ${REBUILDABLE_BUILDERS.join(", ")}`,
    );
  if (existsSync(targetDir)) throw new Error(`rebuild target ${targetDir} already exists: choose a new directory`);
  const files = await locateSources(manifest, rawDir);
  const built = (await importNewsJsonl(files, targetDir, { name: manifest.name, window: manifest.window })).manifest;
  if (built.hash !== manifest.hash) {
    rmSync(targetDir, { recursive: true, force: true });
    throw new Error(
      `rebuilt world "${manifest.name}" has hash ${built.hash}, the export names ${manifest.hash}: the raw files or the importer differ (nothing kept)`,
    );
  }
  return { manifest: built, files };
}
