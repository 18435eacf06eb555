import { z } from "zod";
import { BROWSER_ACTION_TOOLS } from "./browser-tool-names.js";
const WebEffect = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("request"),
    host: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    /** write bodies only (redacted as the host asks); absent on reads */
    body: z.string().optional()
  }),
  z.object({
    kind: z.literal("blocked"),
    method: z.string(),
    url: z.string(),
    /** Chromium's resource type: document, image, script, fetch, websocket, ... */
    resource: z.string()
  })
]);
const MAX_URL = 500;
const loggedUrl = (url) => url.length > MAX_URL ? `${url.slice(0, MAX_URL)}\u2026` : url;
const cmp = (a, b) => a < b ? -1 : a > b ? 1 : 0;
function canonicalEffects(effects) {
  const reads = [];
  const writes = [];
  const blocked = [];
  for (const e of effects) {
    switch (e.kind) {
      case "request":
        (e.body === void 0 ? reads : writes).push(e);
        break;
      case "blocked":
        blocked.push(e);
        break;
      default: {
        const never = e;
        throw new Error(`unknown web effect ${JSON.stringify(never)}`);
      }
    }
  }
  reads.sort((a, b) => cmp(a.host, b.host) || cmp(a.path, b.path) || cmp(a.method, b.method) || a.status - b.status);
  blocked.sort((a, b) => cmp(a.url, b.url) || cmp(a.method, b.method) || cmp(a.resource, b.resource));
  return [...reads, ...writes, ...blocked];
}
const EffectsOf = z.object({ effects: z.array(WebEffect) });
function effectsOfCommitment(e) {
  if (!BROWSER_ACTION_TOOLS.includes(e.tool)) return [];
  const parsed = EffectsOf.safeParse(e.args);
  return parsed.success ? parsed.data.effects : [];
}
export {
  WebEffect,
  canonicalEffects,
  effectsOfCommitment,
  loggedUrl
};
//# sourceMappingURL=web-effects.js.map
