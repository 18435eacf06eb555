import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OutsideAgent } from "./external-actor.js";
import { createMcpServer } from "./mcp-server.js";

export const MCP_HTTP_PATH = "/mcp";

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** wall time (ms since epoch) of the last request: the CLI ends the process after an idle period once the run is over */
  lastRequestAt(): number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1, stateless (`sessionIdGenerator: undefined`): every POST gets a
 * fresh SDK server and transport bound to the same outside agent, answered as JSON. A stateless
 * session has no end of its own: over HTTP the run ends with `finish`, the end of the episode, or
 * the idle timeout (flagged). Other paths are 404; GET and DELETE are 405 (no streams or sessions).
 */
export async function serveMcpHttp(
  outside: OutsideAgent,
  o: { port: number; version: string },
): Promise<McpHttpServer> {
  let last = Date.now();
  const http: HttpServer = createServer((req, res) => {
    last = Date.now();
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_HTTP_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: the MCP endpoint is ${MCP_HTTP_PATH}\n`);
      return;
    }
    if (req.method !== "POST") {
      res
        .writeHead(405, { "content-type": "application/json", allow: "POST" })
        .end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "stateless server: POST only" }, id: null }),
        );
      return;
    }
    const server = createMcpServer(outside, o.version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((err: unknown) => {
        if (!res.headersSent)
          res
            .writeHead(500, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: String(err) }, id: null }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(o.port, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    port,
    lastRequestAt: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
