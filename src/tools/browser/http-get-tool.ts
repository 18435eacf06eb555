import { z } from "zod";
import { defineTool, ok, reject, type ToolDef } from "../tool.js";
import { WebHostSet } from "../web-host.js";

export const HTTP_GET_TOOL = "http_get";
/** default and largest page of a response body returned by one call (characters) */
export const HTTP_GET_DEFAULT_CHARS = 50_000;
export const HTTP_GET_MAX_CHARS = 200_000;
const MAX_PATH = 2_000;

export const HttpGetArgs = z
  .object({
    host: z.string().describe('a read-only host name, e.g. "sec"'),
    path: z.string().describe('path and query, starting with "/"'),
    offset: z.number().int().nonnegative().default(0).describe("first character of the body to return (paging)"),
    max_chars: z
      .number()
      .int()
      .positive()
      .max(HTTP_GET_MAX_CHARS)
      .default(HTTP_GET_DEFAULT_CHARS)
      .describe(`characters of the body to return (≤ ${HTTP_GET_MAX_CHARS})`),
  })
  .strict();

/** What `http_get` returns: the host's status and one page of its body. */
export interface HttpGetResult {
  url: string;
  status: number;
  content_type: string;
  total_chars: number;
  offset: number;
  body: string;
  /** offset of the next page, null when this page ends the body */
  next_offset: number | null;
}

/**
 * `http_get(host, path, offset?, max_chars?)`: a GET on one of the run's read-only hosts, served in
 * process at the current simulated time (never moves the clock). The answer is paged by characters
 * so a large payload does not flood the agent's context. Writable hosts are refused (free): they are
 * reached through the browser. The ledgered call (host, path) is the read log of `http_get`.
 */
export function httpGetTool(hosts: WebHostSet, o: { price_usd: number }): ToolDef {
  const readable = hosts.list().filter((h) => h.writes === "none");
  const names = readable.map((h) => h.name);
  return defineTool({
    name: HTTP_GET_TOOL,
    description:
      `GET a read-only web host of this task (${readable.map((h) => `"${h.name}": ${h.title}`).join("; ")}), ` +
      "replayed at the current simulated time. Returns {url, status, content_type, total_chars, offset, body, " +
      `next_offset}; bodies are paged by characters (max_chars ≤ ${HTTP_GET_MAX_CHARS}, default ` +
      `${HTTP_GET_DEFAULT_CHARS}). ${o.price_usd > 0 ? `Costs $${o.price_usd} per call.` : "Free."} ` +
      "Never moves the clock.",
    args: HttpGetArgs,
    kind: "data",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const host = hosts.get(a.host);
      if (!host) return reject(`unknown host "${a.host}"; read-only hosts: ${names.join(", ") || "(none)"}`);
      if (host.writes !== "none")
        return reject(`host "${a.host}" is writable: open ${WebHostSet.origin(a.host)}/ in the browser instead`);
      if (!a.path.startsWith("/")) return reject(`path must start with "/", got ${JSON.stringify(a.path)}`);
      if (a.path.length > MAX_PATH) return reject(`path longer than ${MAX_PATH} characters`);
      const url = `${WebHostSet.origin(a.host)}${a.path}`;
      let req: Request;
      try {
        req = new Request(url);
      } catch {
        return reject(`not a valid path: ${JSON.stringify(a.path)}`);
      }
      const { response } = await hosts.dispatch(req, "http_get");
      const end = Math.min(response.body.length, a.offset + a.max_chars);
      const result: HttpGetResult = {
        url,
        status: response.status,
        content_type: response.headers["content-type"] ?? "",
        total_chars: response.body.length,
        offset: a.offset,
        body: response.body.slice(a.offset, end),
        next_offset: end < response.body.length ? end : null,
      };
      return ok(result);
    },
  });
}
