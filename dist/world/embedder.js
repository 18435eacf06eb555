import { HASHING_EMBEDDER_ID, hashingEmbedder } from "./embedder-hashing.js";
const EMBEDDERS = {
  [HASHING_EMBEDDER_ID]: hashingEmbedder
};
const DEFAULT_EMBEDDER_ID = HASHING_EMBEDDER_ID;
function getEmbedder(id) {
  const make = EMBEDDERS[id];
  if (!make) throw new Error(`unknown embedder "${id}"; known: ${Object.keys(EMBEDDERS).join(", ")}`);
  return make();
}
export {
  DEFAULT_EMBEDDER_ID,
  getEmbedder
};
//# sourceMappingURL=embedder.js.map
