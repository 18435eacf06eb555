/** Embedder ids of endpoint vectors: `endpoint:<model>:<dim>`. */
export const ENDPOINT_EMBEDDER_PREFIX = "endpoint:";

export const endpointEmbedderId = (model: string, dim: number) => `${ENDPOINT_EMBEDDER_PREFIX}${model}:${dim}`;

/** The dimension an endpoint embedder id names (`endpoint:<model>:<dim>`); null for other ids. */
export function endpointEmbedderDim(id: string): number | null {
  if (!id.startsWith(ENDPOINT_EMBEDDER_PREFIX)) return null;
  const dim = Number(id.slice(id.lastIndexOf(":") + 1));
  if (!Number.isInteger(dim) || dim < 1) throw new Error(`embedder id "${id}": no dimension`);
  return dim;
}
