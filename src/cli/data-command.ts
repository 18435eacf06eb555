import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../run/config-error.js";
import { nonNegativeInt, positiveInt } from "./arg-parsers.js";

const mib = (b: number) => `${(b / 1_048_576).toFixed(1)} MiB`;

/**
 * `relive data gc`: evicts cached synthetic worlds (least recently used first) and removes temp
 * dirs of killed builds, of synthetic and recipe-built worlds alike; recipe worlds are evicted only
 * with `--recipe-worlds N` (they rebuild only while their input files are there).
 */
export function registerDataGcCommand(data: Command): void {
  data
    .command("gc")
    .description(
      "evict cached synthetic worlds, least recently used first, keeping the N most recent; remove temp dirs of killed builds " +
        "(synthetic and recipe worlds) and partial recipe world dirs; with --recipe-worlds, evict recipe-built worlds too",
    )
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option("--keep <n>", "synthetic worlds to keep (most recently used)", nonNegativeInt, 4)
    .option(
      "--recipe-worlds <n>",
      "also evict recipe-built worlds (<cache>/worlds), keeping the N most recently used (default: evict none)",
      nonNegativeInt,
    )
    .action(async (o: { cache: string; keep: number; recipeWorlds?: number }) => {
      const { gcSynthWorlds } = await import("../synth/synth-world.js");
      const { gcRecipeWorlds } = await import("../recipes/recipe-gc.js");
      const synth = gcSynthWorlds(join(resolve(o.cache), "synth"), o.keep);
      const recipes = gcRecipeWorlds(resolve(o.cache), o.recipeWorlds ?? null);
      for (const x of synth.removed)
        process.stdout.write(
          `removed ${x.kind === "temp" ? "temp dir of a killed build" : "world"} ${x.path} (${mib(x.bytes)}${x.last_used ? `, last used ${x.last_used}` : ""})\n`,
        );
      for (const x of recipes.removed) {
        const what =
          x.kind === "temp"
            ? "temp dir of a killed recipe build"
            : x.kind === "partial"
              ? "partial recipe world dir (no world.json)"
              : "recipe world";
        const rebuild =
          x.kind === "world" && x.recipe_file
            ? `; rebuilding it needs ${x.recipe_file} and its inputs ${x.inputs.join(", ") || "(none recorded)"}`
            : "";
        process.stdout.write(
          `removed ${what} ${x.path} (${mib(x.bytes)}${x.last_used ? `, last used ${x.last_used}` : ""}${rebuild})\n`,
        );
      }
      const n = synth.removed.length + recipes.removed.length;
      const freed = synth.freed_bytes + recipes.freed_bytes;
      process.stdout.write(
        `freed ${freed} bytes (${mib(freed)}) in ${n} director${n === 1 ? "y" : "ies"}; kept ${synth.kept.length} synthetic world(s), ${recipes.kept.length} recipe world(s)\n`,
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

/**
 * The world directory `relive data embed` works on: a directory holding world.json, else a world
 * built in the cache under that name (`<cache>/worlds/<name>`, as `relive data build` writes it).
 */
export function embedWorldDir(world: string, cacheDir: string): string {
  const dir = resolve(world);
  if (existsSync(join(dir, "world.json"))) return dir;
  const cached = join(resolve(cacheDir), "worlds", world);
  if (existsSync(join(cached, "world.json"))) return cached;
  throw new ConfigError(
    `world "${world}": neither ${dir} nor ${cached} holds a world.json (give a world directory, or build the world first with \`relive data build ${world}\`)`,
  );
}

/**
 * `relive data embed WORLD --endpoint URL --model PROVIDER:MODEL`: fills the world's embedding
 * cache with the endpoint's vectors of every article and makes them the world's news vectors
 * (`embedWorldNews`), priced by the price table's `embeddings` row of PROVIDER:MODEL.
 */
export function registerDataEmbedCommand(data: Command): void {
  data
    .command("embed <world>")
    .description(
      "embed every news article of a world through an OpenAI-compatible /v1/embeddings endpoint (batched, cached in the world) and make them its hybrid-search vectors; the API key is read from $RELIVE_EMBEDDINGS_API_KEY",
    )
    .requiredOption(
      "--endpoint <url>",
      "the endpoint's base URL, e.g. http://127.0.0.1:8080/v1 (/embeddings is appended)",
    )
    .requiredOption(
      "--model <provider:model>",
      "the embedding model as priced in the price table's embeddings rows (e.g. openai:text-embedding-3-small, vllm:BAAI/bge-small-en); the part after the provider is sent to the endpoint",
    )
    .option("--batch-size <n>", "texts per request", positiveInt, 64)
    .option("--prices <file>", "price table with the embeddings rows (default src/models/prices.yaml)")
    .option(
      "--cache <dir>",
      "cache of built worlds, where a world name is looked up",
      process.env.RELIVE_CACHE_DIR ?? ".relive-cache",
    )
    .action(
      async (
        world: string,
        o: { endpoint: string; model: string; batchSize: number; prices?: string; cache: string },
      ) => {
        const [
          { embeddingPrice, DEFAULT_PRICES_PATH },
          { splitModelName },
          { embedWorldNews, EMBEDDINGS_API_KEY_ENV },
          { WorldStore },
        ] = await Promise.all([
          import("../models/price-table.js"),
          import("../models/provider-name.js"),
          import("../world/endpoint-embedder.js"),
          import("../world/world-store.js"),
        ]);
        const dir = embedWorldDir(world, o.cache);
        if (!/^https?:\/\/[^/]/.test(o.endpoint))
          throw new ConfigError(`--endpoint: "${o.endpoint}" is not an http(s) URL`);
        let name: string;
        let usdPerMtok: number;
        try {
          name = splitModelName(o.model).model;
          usdPerMtok = embeddingPrice(o.model, o.prices ? resolve(o.prices) : DEFAULT_PRICES_PATH);
        } catch (err) {
          throw new ConfigError(`--model: ${(err as Error).message}`);
        }
        const store = WorldStore.open(dir);
        const articles = store.manifest.streams.news ?? 0;
        const label = store.manifest.name;
        store.close();
        if (articles === 0) throw new ConfigError(`world "${label}" (${dir}) has no news articles to embed`);
        const apiKey = process.env[EMBEDDINGS_API_KEY_ENV]?.trim();
        const r = await embedWorldNews(dir, {
          endpoint: { baseURL: o.endpoint, model: name, batchSize: o.batchSize, ...(apiKey ? { apiKey } : {}) },
          usdPerMtok,
        });
        process.stdout.write(
          `embedded ${r.rows} articles of world "${label}" with ${o.model} (${r.dim} dimensions): ${r.requests} request(s) sent, the rest from the cache; queries priced at $${usdPerMtok} per million tokens\n`,
        );
      },
    );
}
