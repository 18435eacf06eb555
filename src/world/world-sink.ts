import type { StreamKind, StreamRows, TruthKind, TruthRows } from "./row-schemas.js";

/** A source file as the manifest records it. */
export interface WorldSinkSource {
  path: string;
  sha256: string;
  rows: number;
  rejected: number;
}

/**
 * Where an importer writes its rows: a `WorldBuilder` (one importer builds a whole world) or a
 * recipe's composed build (several importer families into one world, src/recipes/recipe-compose.ts).
 * The importers' `...Into(sink, …)` forms write only through this; creating, finishing and
 * aborting the world belong to whoever made the sink.
 */
export interface WorldSink {
  /** Validates (zod) and inserts rows of one stream kind; returns the row count. */
  insert<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number;
  /** Inserts rows the importer has already validated against the stream's row schema. */
  insertValidated<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number;
  /** Validates and inserts ground-truth rows (truth.db). */
  insertTruth<K extends TruthKind>(kind: K, rows: Iterable<TruthRows[K]>): number;
  /** Records a source file in the manifest. */
  addSource(src: WorldSinkSource): void;
  /** The window the importer's rows fix (a builder sets it; a composed build combines every source's). */
  setWindow(window: { start: number; end: number }): void;
}
