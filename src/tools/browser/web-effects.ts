import { z } from "zod";
import { BROWSER_ACTION_TOOLS } from "./browser-tool-names.js";

/**
 * What one browser action did on the web, as it is ledgered (inside the action's commitment, see
 * README): every request the page made to a task host (reads with host and path; writes also with
 * their redacted body) and every request that was blocked because it went anywhere else.
 */
export const WebEffect = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("request"),
    host: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    /** write bodies only (redacted as the host asks); absent on reads */
    body: z.string().optional(),
  }),
  z.object({
    kind: z.literal("blocked"),
    method: z.string(),
    url: z.string(),
    /** Chromium's resource type: document, image, script, fetch, websocket, ... */
    resource: z.string(),
  }),
]);
export type WebEffect = z.infer<typeof WebEffect>;

const MAX_URL = 500;

/** A URL as logged in a `blocked` effect (capped, never resolved). */
export const loggedUrl = (url: string) => (url.length > MAX_URL ? `${url.slice(0, MAX_URL)}…` : url);

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The canonical order of one action's effects, independent of the order in which Chromium issued
 * concurrent requests: reads sorted by (host, path, method, status), then writes in the order they
 * were served, then blocked requests sorted by (url, method, resource).
 */
export function canonicalEffects(effects: readonly WebEffect[]): WebEffect[] {
  const reads: Extract<WebEffect, { kind: "request" }>[] = [];
  const writes: Extract<WebEffect, { kind: "request" }>[] = [];
  const blocked: Extract<WebEffect, { kind: "blocked" }>[] = [];
  for (const e of effects) {
    switch (e.kind) {
      case "request":
        (e.body === undefined ? reads : writes).push(e);
        break;
      case "blocked":
        blocked.push(e);
        break;
      default: {
        const never: never = e;
        throw new Error(`unknown web effect ${JSON.stringify(never)}`);
      }
    }
  }
  reads.sort((a, b) => cmp(a.host, b.host) || cmp(a.path, b.path) || cmp(a.method, b.method) || a.status - b.status);
  blocked.sort((a, b) => cmp(a.url, b.url) || cmp(a.method, b.method) || cmp(a.resource, b.resource));
  return [...reads, ...writes, ...blocked];
}

const EffectsOf = z.object({ effects: z.array(WebEffect) });

/**
 * The web effects a ledgered commitment carries: an acting browser tool's effects, [] for anything
 * else (or for arguments that do not parse). For scorers.
 */
export function effectsOfCommitment(e: { tool: string; args: unknown }): WebEffect[] {
  if (!BROWSER_ACTION_TOOLS.includes(e.tool)) return [];
  const parsed = EffectsOf.safeParse(e.args);
  return parsed.success ? parsed.data.effects : [];
}
