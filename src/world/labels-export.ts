import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { STREAM_KINDS } from "./row-schemas.js";
import { TruthStore } from "./truth-store.js";
import type { WorldManifest } from "./types.js";
import { WORLD_JSON } from "./world-builder.js";
import { WorldManifestSchema, WorldStore } from "./world-store.js";

/**
 * Label-only world export (data.md): ids, timestamps and derived labels, never third-party text,
 * so results can be shared without redistributing content. The export is a directory:
 * `world.json` (the manifest verbatim: window, row counts, source files with sha256, world hash),
 * `export.json` (format, world hash, the columns left out per stream), `streams/<kind>.jsonl`
 * (every row of each non-empty stream without its text columns) and `truth/<kind>.jsonl`
 * (breakpoints, attributions, incidents, answers, labels). The full world is rebuilt from the raw
 * source files (`rebuildWorld` in ingest/), checked against the manifest's checksums and hash.
 */
export const LABELS_EXPORT_FORMAT = "relive-labels-only/1";

/** Columns holding third-party text (titles, bodies, article text, URLs, authors): never exported. */
export const TEXT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  news: ["url", "title", "text"],
  market: ["question", "description"],
  reddit_post: ["author", "title", "body"],
  reddit_comment: ["author", "body"],
  question: ["title", "background", "criteria"],
};

/** Internal columns of world.db that are not part of a row. */
const INTERNAL_COLUMNS: Readonly<Record<string, readonly string[]>> = { news: ["rid"] };

export const LabelsExportMeta = z.object({
  format: z.literal(LABELS_EXPORT_FORMAT),
  world_hash: z.string().regex(/^[0-9a-f]{64}$/),
  omitted: z.record(z.string(), z.array(z.string())),
});
export type LabelsExportMeta = z.infer<typeof LabelsExportMeta>;

/** Beside world.json of a world built from a recipe (src/recipes): the recipe, its importer and its inputs' sha256; exports carry it. */
export const RECIPE_BUILD_JSON = "recipe-build.json";

const jsonl = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join("");

/** Writes the label-only export of the world in `worldDir` to `outDir` (a new directory; built in a temp dir and renamed). */
export function exportLabelsOnly(worldDir: string, outDir: string): { manifest: WorldManifest; rows: number } {
  if (existsSync(outDir)) throw new Error(`export target ${outDir} already exists: choose a new directory`);
  const ws = WorldStore.open(worldDir);
  const truth = TruthStore.open(worldDir);
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  let rows = 0;
  try {
    mkdirSync(join(tmp, "streams"), { recursive: true });
    mkdirSync(join(tmp, "truth"), { recursive: true });
    const omitted: Record<string, string[]> = {};
    for (const kind of STREAM_KINDS) {
      if ((ws.manifest.streams[kind] ?? 0) === 0) continue;
      const drop = new Set([...(TEXT_COLUMNS[kind] ?? []), ...(INTERNAL_COLUMNS[kind] ?? [])]);
      const cols = (ws.db.prepare(`SELECT name FROM pragma_table_info('${kind}')`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => !drop.has(c));
      if (TEXT_COLUMNS[kind]) omitted[kind] = [...TEXT_COLUMNS[kind]];
      const out = ws.db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(", ")} FROM ${kind} ORDER BY rowid`).all();
      writeFileSync(join(tmp, "streams", `${kind}.jsonl`), jsonl(out));
      rows += out.length;
    }
    const truthRows: Record<string, unknown[]> = {
      breakpoint: truth.breakpoints(),
      attribution: truth.attributions(),
      incident: truth.incidents(),
      question_answer: truth.answers(),
      label: truth.labelKinds().flatMap((k) => truth.labels(k)),
    };
    for (const [kind, list] of Object.entries(truthRows)) {
      if (list.length === 0) continue;
      writeFileSync(join(tmp, "truth", `${kind}.jsonl`), jsonl(list));
      rows += list.length;
    }
    writeFileSync(join(tmp, WORLD_JSON), readFileSync(join(worldDir, WORLD_JSON)));
    // how a recipe world was built (the recipe and its inputs' checksums): what a rebuild re-runs
    if (existsSync(join(worldDir, RECIPE_BUILD_JSON)))
      writeFileSync(join(tmp, RECIPE_BUILD_JSON), readFileSync(join(worldDir, RECIPE_BUILD_JSON)));
    const meta: LabelsExportMeta = { format: LABELS_EXPORT_FORMAT, world_hash: ws.manifest.hash, omitted };
    writeFileSync(join(tmp, "export.json"), `${JSON.stringify(meta, null, 2)}\n`);
    renameSync(tmp, outDir);
    return { manifest: ws.manifest, rows };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    ws.close();
    truth.close();
  }
}

/** Reads a label-only export's manifest and metadata (validated), naming the directory on errors. */
export function readLabelsExport(dir: string): { manifest: WorldManifest; meta: LabelsExportMeta } {
  const read = (name: string) => {
    const p = join(dir, name);
    if (!existsSync(p)) throw new Error(`${dir} is not a label-only export: ${name} is missing`);
    try {
      return JSON.parse(readFileSync(p, "utf8")) as unknown;
    } catch (e) {
      throw new Error(`${p}: not valid JSON (${(e as Error).message})`);
    }
  };
  const manifest = WorldManifestSchema.safeParse(read(WORLD_JSON));
  if (!manifest.success) throw new Error(`${join(dir, WORLD_JSON)}: not a world manifest (${manifest.error.message})`);
  const meta = LabelsExportMeta.safeParse(read("export.json"));
  if (!meta.success)
    throw new Error(`${join(dir, "export.json")}: not a ${LABELS_EXPORT_FORMAT} export (${meta.error.message})`);
  if (meta.data.world_hash !== manifest.data.hash)
    throw new Error(`${dir}: export.json names world ${meta.data.world_hash} but world.json is ${manifest.data.hash}`);
  return { manifest: manifest.data, meta: meta.data };
}
