import { z } from "zod";
import { defineTool, ok, reject } from "../tool.js";
import { WebHostSet } from "../web-host.js";
const HTTP_GET_TOOL = "http_get";
const HTTP_GET_DEFAULT_CHARS = 5e4;
const HTTP_GET_MAX_CHARS = 2e5;
const MAX_PATH = 2e3;
const HttpGetArgs = z.object({
  host: z.string().describe('a read-only host name, e.g. "sec"'),
  path: z.string().describe('path and query, starting with "/"'),
  offset: z.number().int().nonnegative().default(0).describe("first character of the body to return (paging)"),
  max_chars: z.number().int().positive().max(HTTP_GET_MAX_CHARS).default(HTTP_GET_DEFAULT_CHARS).describe(`characters of the body to return (\u2264 ${HTTP_GET_MAX_CHARS})`)
}).strict();
function httpGetTool(hosts, o) {
  const readable = hosts.list().filter((h) => h.writes === "none");
  const names = readable.map((h) => h.name);
  return defineTool({
    name: HTTP_GET_TOOL,
    description: `GET a read-only web host of this task (${readable.map((h) => `"${h.name}": ${h.title}`).join("; ")}), replayed at the current simulated time. Returns {url, status, content_type, total_chars, offset, body, next_offset}; bodies are paged by characters (max_chars \u2264 ${HTTP_GET_MAX_CHARS}, default ${HTTP_GET_DEFAULT_CHARS}). ${o.price_usd > 0 ? `Costs $${o.price_usd} per call.` : "Free."} Never moves the clock.`,
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
      let req;
      try {
        req = new Request(url);
      } catch {
        return reject(`not a valid path: ${JSON.stringify(a.path)}`);
      }
      const { response } = await hosts.dispatch(req, "http_get");
      const end = Math.min(response.body.length, a.offset + a.max_chars);
      const result = {
        url,
        status: response.status,
        content_type: response.headers["content-type"] ?? "",
        total_chars: response.body.length,
        offset: a.offset,
        body: response.body.slice(a.offset, end),
        next_offset: end < response.body.length ? end : null
      };
      return ok(result);
    }
  });
}
export {
  HTTP_GET_DEFAULT_CHARS,
  HTTP_GET_MAX_CHARS,
  HTTP_GET_TOOL,
  HttpGetArgs,
  httpGetTool
};
//# sourceMappingURL=http-get-tool.js.map
