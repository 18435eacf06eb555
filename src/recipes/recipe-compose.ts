import { isAbsolute, join } from "node:path";
import { isoDay } from "../common/time.js";
import type { CandleSource } from "../ingest/candle-world.js";
import { ImportRefusedError } from "../ingest/import-report.js";
import type { RejectedRow } from "../ingest/kraken-ohlcvt.js";
import type { StreamKind, StreamRows, TruthKind, TruthRows } from "../world/row-schemas.js";
import type { WorldManifest } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink, WorldSinkSource } from "../world/world-sink.js";
import { type LoadedRecipe, RecipeError } from "./recipe-file.js";
import { type ImporterFamily, importerFamily, type RecipeSource, recipeFamilies } from "./recipe-schema.js";

/** The builder of a world composed of several importer families (its manifest's `builder`). */
export const COMPOSED_BUILDER = "recipes/compose";
export const COMPOSED_BUILDER_VERSION = "1";

/** What one family of a composed recipe imported: its sources (by index), rows per stream, rejections. */
export interface SourcePartReport {
  family: ImporterFamily;
  /** the recipe's sources this part imported (indexes into `sources`), in the recipe's order */
  sources: { index: number; importer: string }[];
  /** rows written per stream kind */
  streams: Record<string, number>;
  /** rows written (every stream) */
  accepted: number;
  rejected: RejectedRow[];
  notes: string[];
  /** the window the part's rows fix */
  window: { start: number; end: number } | null;
}

const iso = (t: number) => new Date(t).toISOString().replace(".000Z", "Z");
const label = (p: Pick<SourcePartReport, "sources">) =>
  p.sources.map((s) => `sources.${s.index} (${s.importer})`).join(", ");

/**
 * The sink of one composed build: rows go to the one `WorldBuilder`, counted per part; a stream
 * written by a second family is refused (the schema refuses it first: this is the run-time
 * guard); each part's window is recorded instead of set (the composer sets the world's).
 */
class ComposedSink implements WorldSink {
  private part: SourcePartReport | null = null;
  private readonly owner = new Map<string, SourcePartReport>();

  constructor(private readonly builder: WorldBuilder) {}

  begin(part: SourcePartReport): void {
    this.part = part;
  }

  private claim(kind: string): SourcePartReport {
    const p = this.part;
    if (p === null) throw new Error("composed sink: no part begun");
    const o = this.owner.get(kind);
    if (o !== undefined && o !== p && o.family !== p.family)
      throw new RecipeError(
        `${label(p)} and ${label(o)} both write the stream ${kind}: importers of different families cannot fill one stream`,
      );
    this.owner.set(kind, p);
    return p;
  }

  private count(p: SourcePartReport, kind: string, n: number): number {
    p.streams[kind] = (p.streams[kind] ?? 0) + n;
    p.accepted += n;
    return n;
  }

  insert<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number {
    const p = this.claim(kind);
    return this.count(p, kind, this.builder.insert(kind, rows));
  }

  insertValidated<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number {
    const p = this.claim(kind);
    return this.count(p, kind, this.builder.insertValidated(kind, rows));
  }

  insertTruth<K extends TruthKind>(kind: K, rows: Iterable<TruthRows[K]>): number {
    if (kind !== "label") this.claim(`truth.${kind}`);
    return this.builder.insertTruth(kind, rows);
  }

  addSource(src: WorldSinkSource): void {
    this.builder.addSource(src);
  }

  setWindow(window: { start: number; end: number }): void {
    if (this.part === null) throw new Error("composed sink: no part begun");
    this.part.window = { ...window };
  }
}

/** An importer's named counts as one note line. */
const countsNote = (counts: Record<string, number>): string[] => {
  const e = Object.entries(counts);
  return e.length ? [e.map(([k, v]) => `${k} ${v}`).join(", ")] : [];
};

/** Writes one family's sources into the sink (the same importers, with the same parameters, as a one-family recipe). */
async function importPart(
  sink: WorldSink,
  r: LoadedRecipe,
  root: string,
  family: ImporterFamily,
  sources: readonly RecipeSource[],
): Promise<{ rejected: RejectedRow[]; notes: string[] }> {
  const recipe = r.recipe;
  const abs = (p: string) => (isAbsolute(p) ? p : join(root, p));
  const window = recipe.window;
  const one = sources[0] as RecipeSource;
  switch (family) {
    case "candles": {
      const { importCandlesInto } = await import("../ingest/candle-world.js");
      const candle = sources.flatMap((s): CandleSource[] =>
        s.importer === "kraken-ohlcvt" ||
        s.importer === "binance-klines" ||
        s.importer === "binanceus-csv" ||
        s.importer === "okx-klines" ||
        s.importer === "kucoin-klines"
          ? [
              {
                path: s.path,
                format: s.importer,
                venue: s.venue,
                symbol: s.symbol,
                interval: s.interval,
                ...(s.resample !== undefined ? { resampleMs: s.resample } : {}),
              },
            ]
          : [],
      );
      const rep = importCandlesInto(sink, root, {
        name: recipe.name,
        window: window as { start: number; end: number },
        lookbackMs: recipe.lookback ?? 0,
        sources: candle,
      });
      return { rejected: rep.rejected, notes: [] };
    }
    case "edgar": {
      const { importEdgarInto, EDGAR_WORLD_BUILDER, EDGAR_WORLD_BUILDER_VERSION } = await import(
        "../ingest/edgar-world.js"
      );
      const companies = sources.flatMap((s) =>
        s.importer === "edgar"
          ? [
              {
                submissions: s.submissions,
                pages: s.pages,
                ...(s.companyfacts !== undefined ? { companyfacts: s.companyfacts } : {}),
              },
            ]
          : [],
      );
      const rep = importEdgarInto(sink, root, {
        name: recipe.name,
        builder: EDGAR_WORLD_BUILDER,
        builder_version: EDGAR_WORLD_BUILDER_VERSION,
        window: window as { start: number; end: number },
        companies,
      });
      return {
        rejected: rep.rejected,
        notes: rep.withoutFacts.map(
          (c) => `CIK ${c}: no companyfacts (10-Q/10-K values not scorable, 8-K duties scored)`,
        ),
      };
    }
    case "forecastbench": {
      if (one.importer !== "forecastbench") break;
      const { importForecastBenchInto } = await import("../ingest/forecastbench.js");
      const rows = importForecastBenchInto(sink, {
        questionSet: abs(one.questions),
        resolutionSet: abs(one.resolutions),
      });
      return { rejected: rows.rejected.map((x) => ({ file: x.file, line: x.index, reason: x.reason })), notes: [] };
    }
    case "warc": {
      if (one.importer !== "warc") break;
      const { importWarcNewsInto } = await import("../ingest/warc-news.js");
      const rep = await importWarcNewsInto(
        sink,
        one.files.map(abs),
        one.near_dup !== undefined ? { nearDuplicateJaccard: one.near_dup } : {},
      );
      return { rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "polymarket": {
      if (one.importer !== "polymarket") break;
      const { importPolymarketInto } = await import("../ingest/polymarket-world.js");
      const rep = await importPolymarketInto(sink, one.files.map(abs), {
        clob: one.clob.map((c) => ({ token: c.token, file: abs(c.file) })),
        breakpoints: one.bp,
        ...(one.price_delay_min !== undefined ? { priceDelayMs: Math.round(one.price_delay_min * 60_000) } : {}),
      });
      return { rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "reddit": {
      if (one.importer !== "reddit") break;
      const { importRedditDumpsInto } = await import("../ingest/reddit-ndjson.js");
      const rep = await importRedditDumpsInto(sink, one.files.map(abs));
      return { rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "news-jsonl": {
      if (one.importer !== "news-jsonl") break;
      const { importNewsJsonlInto } = await import("../ingest/news-jsonl.js");
      const rep = await importNewsJsonlInto(sink, one.files.map(abs), window !== undefined ? { window } : {});
      return { rejected: rep.rejected, notes: [`articles ${rep.accepted}`] };
    }
    case "events": {
      if (one.importer !== "events") break;
      const { importEventsJsonlInto } = await import("../ingest/events-jsonl.js");
      const rep = await importEventsJsonlInto(sink, one.files.map(abs), {
        mapping: {
          time_field: one.time_field,
          kind_field: one.kind_field,
          ...(one.id_field !== undefined ? { id_field: one.id_field } : {}),
        },
      });
      return { rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
  }
  throw new RecipeError(`recipe ${r.file}: the ${family} part has no ${family} source`);
}

export interface ComposedBuild {
  manifest: WorldManifest;
  rejected: RejectedRow[];
  notes: string[];
  parts: SourcePartReport[];
}

/**
 * Builds the one world of a recipe whose sources are of several importer families into `target`:
 * one `WorldBuilder`, each family's importer writing its rows through a `ComposedSink`, the
 * families in `FAMILY_ORDER` whatever the recipe's order (so the rows, the manifest's sources and
 * the hash do not depend on it), the sources of one family in the recipe's order (as in a
 * one-family recipe: a candle repeated across files is kept from the first). The world window is
 * the recipe's (every part's data window must lie inside it; JSONL news keeps only the rows inside
 * it) or, without one, the span of the parts' windows. Any error (a bad file, an importer's
 * refusal, a window outside) aborts the builder: nothing is left at `target`.
 */
export async function buildComposedWorld(r: LoadedRecipe, root: string, target: string): Promise<ComposedBuild> {
  const recipe = r.recipe;
  const families = recipeFamilies(recipe.sources);
  const news = families.includes("warc") || families.includes("news-jsonl");
  const builder = WorldBuilder.create(
    target,
    {
      name: recipe.name,
      window: recipe.window ?? { start: 0, end: 0 },
      builder: COMPOSED_BUILDER,
      builder_version: COMPOSED_BUILDER_VERSION,
    },
    { streamNewsFts: news },
  );
  const sink = new ComposedSink(builder);
  const parts: SourcePartReport[] = [];
  try {
    for (const family of families) {
      const sources = recipe.sources.flatMap((s, index) =>
        importerFamily(s.importer) === family ? [{ index, source: s }] : [],
      );
      const part: SourcePartReport = {
        family,
        sources: sources.map((s) => ({ index: s.index, importer: s.source.importer })),
        streams: {},
        accepted: 0,
        rejected: [],
        notes: [],
        window: null,
      };
      sink.begin(part);
      try {
        const rep = await importPart(
          sink,
          r,
          root,
          family,
          sources.map((s) => s.source),
        );
        part.rejected = rep.rejected;
        part.notes = rep.notes;
      } catch (e) {
        const msg = `${label(part)}: ${(e as Error).message}`;
        if (e instanceof ImportRefusedError) throw new ImportRefusedError(msg, e.rejected, e.read);
        throw new Error(msg);
      }
      const w = part.window;
      if (w !== null && recipe.window !== undefined && (w.start < recipe.window.start || w.end > recipe.window.end))
        throw new RecipeError(
          `recipe ${r.file}: ${label(part)}: the ${family} data spans ${iso(w.start)} → ${iso(w.end)}, outside the recipe's window ${isoDay(recipe.window.start)} → ${isoDay(recipe.window.end)}: widen the window or leave it out (nothing was kept)`,
        );
      parts.push(part);
    }
    if (recipe.window === undefined) {
      const ws = parts.flatMap((p) => (p.window ? [p.window] : []));
      builder.setWindow({ start: Math.min(...ws.map((w) => w.start)), end: Math.max(...ws.map((w) => w.end)) });
    }
    const manifest = builder.finish();
    return {
      manifest,
      rejected: parts.flatMap((p) => p.rejected),
      notes: parts.flatMap((p) => p.notes.map((n) => `${label(p)}: ${n}`)),
      parts,
    };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** The per-source report lines of a composed build (`relive data build`). */
export function formatPartReports(parts: readonly SourcePartReport[]): string[] {
  return parts.map((p) => {
    const streams = Object.entries(p.streams)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    return `${label(p)} [${p.family}]: ${p.accepted} row(s) accepted (${streams || "none"}), ${p.rejected.length} rejected`;
  });
}
