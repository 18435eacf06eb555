import { HASHING_EMBEDDER_ID, hashingEmbedder } from "./embedder-hashing.js";

/**
 * A text embedder for the vector half of hybrid news search. Pure and synchronous: the same text
 * gives the same vector on every machine (vectors are built at world build and the query side must
 * match them). `embed` returns one vector of length `dim` per text; vectors need not be normalized
 * (the store L2-normalizes them).
 */
export interface Embedder {
  /** names the embedder and its version; recorded in world_meta, so a world's vectors say what built them */
  readonly id: string;
  readonly dim: number;
  embed(texts: readonly string[]): Float32Array[];
}

/**
 * Embedders by id. A world records the id its vectors were built with and its views embed queries
 * with the same one, so an embedder is added here (one line) and selected at world build
 * (`WorldBuildOptions.newsEmbedder`).
 */
const EMBEDDERS: Record<string, () => Embedder> = {
  [HASHING_EMBEDDER_ID]: hashingEmbedder,
};

/** The offline default: feature hashing of word unigrams and bigrams (no model, no network). */
export const DEFAULT_EMBEDDER_ID = HASHING_EMBEDDER_ID;

/** Whether `id` names an embedder of the registry above (one `getEmbedder` rebuilds anywhere, e.g. in a worker thread). */
export function isRegisteredEmbedder(id: string): boolean {
  return Object.hasOwn(EMBEDDERS, id);
}

export function getEmbedder(id: string): Embedder {
  const make = EMBEDDERS[id];
  if (!make) throw new Error(`unknown embedder "${id}"; known: ${Object.keys(EMBEDDERS).join(", ")}`);
  return make();
}
