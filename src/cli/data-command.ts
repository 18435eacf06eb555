import { join, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";

const keepCount = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
};

const mib = (b: number) => `${(b / 1_048_576).toFixed(1)} MiB`;

/** `relive data gc`: evicts cached synthetic worlds (least recently used first) and temp dirs of killed builds. */
export function registerDataGcCommand(data: Command): void {
  data
    .command("gc")
    .description(
      "evict cached synthetic worlds, least recently used first, keeping the N most recent; also removes temp dirs of killed builds",
    )
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option("--keep <n>", "synthetic worlds to keep (most recently used)", keepCount, 4)
    .action(async (o: { cache: string; keep: number }) => {
      const { gcSynthWorlds } = await import("../synth/synth-world.js");
      const r = gcSynthWorlds(join(resolve(o.cache), "synth"), o.keep);
      for (const x of r.removed)
        process.stdout.write(
          `removed ${x.kind === "temp" ? "temp dir of a killed build" : "world"} ${x.path} (${mib(x.bytes)}${x.last_used ? `, last used ${x.last_used}` : ""})\n`,
        );
      process.stdout.write(
        `freed ${r.freed_bytes} bytes (${mib(r.freed_bytes)}) in ${r.removed.length} director${r.removed.length === 1 ? "y" : "ies"}; kept ${r.kept.length} world(s)\n`,
      );
    });
}

/** `relive data export DIR --labels-only -o OUT` and `relive data rebuild OUT --raw DIR -o WORLD`. */
export function registerDataExportCommands(data: Command): void {
  data
    .command("export <world>")
    .description(
      "export a world as ids, timestamps and derived labels only (no third-party text), with its manifest and source checksums",
    )
    .requiredOption("--labels-only", "the only export kind: no titles, bodies, article text, URLs or authors")
    .requiredOption("-o, --out <dir>", "the export directory (must not exist)")
    .action(async (world: string, o: { out: string }) => {
      const { exportLabelsOnly } = await import("../world/labels-export.js");
      const r = exportLabelsOnly(resolve(world), resolve(o.out));
      process.stdout.write(
        `exported ${r.rows} label rows of world "${r.manifest.name}" (hash ${r.manifest.hash}) to ${resolve(o.out)}\n`,
      );
    });
  data
    .command("rebuild <export>")
    .description(
      "rebuild the full world of a label-only export from the raw source files (as pulled), checking checksums and the world hash " +
        "(worlds built from a recipe, any importer: the export carries the recipe; imported JSONL news)",
    )
    .requiredOption("--raw <dir>", "folder holding the raw source files (searched by file name)")
    .requiredOption("-o, --out <dir>", "the rebuilt world directory (must not exist)")
    .action(async (exp: string, o: { raw: string; out: string }) => {
      const { isRecipeExport, rebuildRecipeWorld } = await import("../recipes/recipe-rebuild.js");
      const { rebuildWorld } = await import("../ingest/rebuild-world.js");
      // a recipe world re-runs the recipe it carries; a news-jsonl import re-runs its importer
      const rebuild = isRecipeExport(resolve(exp)) ? rebuildRecipeWorld : rebuildWorld;
      const r = await rebuild(resolve(exp), resolve(o.raw), resolve(o.out));
      process.stdout.write(
        `rebuilt world "${r.manifest.name}" from ${r.files.length} raw file(s) into ${resolve(o.out)}: hash ${r.manifest.hash} (matches the export)\n`,
      );
    });
}
