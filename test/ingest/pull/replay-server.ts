import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback HTTP server (127.0.0.1, ephemeral port) replaying fixed payloads for the pull tests.
 * Routes match the request path + query exactly (`/a?b=1`) or by a function; every request is
 * recorded with its headers. Bodies honour `Range: bytes=N-` (206) when the route allows it.
 */

export interface Reply {
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** answer Range requests with 206 */
  range?: boolean;
  /** send only this many bytes of the body (headers announce all of it), then drop the connection */
  cut?: number;
}

export type Route = Reply | ((req: IncomingMessage, n: number) => Reply);

export interface ReplayServer {
  url: string;
  requests: { url: string; headers: IncomingMessage["headers"] }[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startReplayServer(routes: Record<string, Route> = {}): Promise<ReplayServer> {
  const table = new Map(Object.entries(routes));
  const requests: ReplayServer["requests"] = [];
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    requests.push({ url, headers: req.headers });
    const route = table.get(url);
    const n = (hits.get(url) ?? 0) + 1;
    hits.set(url, n);
    const r: Reply =
      route === undefined ? { status: 404, body: "not found" } : typeof route === "function" ? route(req, n) : route;
    let body = typeof r.body === "string" ? Buffer.from(r.body) : (r.body ?? Buffer.alloc(0));
    let status = r.status ?? 200;
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ""));
    if (r.range && range && status === 200) {
      const from = Number(range[1]);
      res.setHeader("Content-Range", `bytes ${from}-${body.length - 1}/${body.length}`);
      body = body.subarray(from);
      status = 206;
    }
    res.writeHead(status, { "Content-Length": String(body.length), ...r.headers });
    if (r.cut !== undefined) {
      res.write(body.subarray(0, r.cut), () => res.socket?.end());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes: table,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
