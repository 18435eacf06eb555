import type { Embedder } from "./embedder.js";

/** Embedder ids of endpoint vectors: `endpoint:<model>:<dim>`. */
export const ENDPOINT_EMBEDDER_PREFIX = "endpoint:";

export const endpointEmbedderId = (model: string, dim: number) => `${ENDPOINT_EMBEDDER_PREFIX}${model}:${dim}`;

/**
 * The registry's stand-in for endpoint vectors (`getEmbedder("endpoint:<model>:<dim>")`): it names
 * the dimension for the vector store; query vectors come from the asynchronous `QueryEmbedder`
 * (`WorldStore.queryEmbedder()`), so a synchronous embed is a system error.
 */
export function endpointPlaceholder(id: string): Embedder | null {
  if (!id.startsWith(ENDPOINT_EMBEDDER_PREFIX)) return null;
  const dim = Number(id.slice(id.lastIndexOf(":") + 1));
  if (!Number.isInteger(dim) || dim < 1) throw new Error(`embedder id "${id}": no dimension`);
  return {
    id,
    dim,
    embed() {
      throw new Error(`embedder ${id}: query vectors come from the embedding endpoint (WorldStore.queryEmbedder)`);
    },
  };
}
