/**
 * Minimal node:http plumbing shared by the conformance servers (written for this suite; it shares
 * nothing with test/support/openai-test-server.ts). Every server listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface Started {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

export type Handler = (x: Exchange) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

export async function listen(handler: Handler): Promise<Started> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = text === "" ? null : JSON.parse(text);
      } catch {
        body = text;
      }
      let out: { status: number; body: unknown };
      try {
        out = await handler({
          method: req.method ?? "GET",
          path: (req.url ?? "/").split("?")[0]!,
          headers: req.headers,
          body,
        });
      } catch (err) {
        out = { status: 500, body: { error: { message: `conformance server bug: ${(err as Error).stack}` } } };
      }
      const payload = JSON.stringify(out.body);
      res.writeHead(out.status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<string> {
  const s = await listen(() => ({ status: 200, body: {} }));
  await s.close();
  return s.origin;
}

/** The servers' own token count: 1 token per 4 characters (deterministic; billing is checked against it). */
export const tokens = (s: string) => Math.ceil(s.length / 4);

/** What a server billed for each successful reply, in order. */
export interface BilledReply {
  input: number;
  cached: number;
  /** Anthropic only: tokens written to the cache */
  cache_write?: number;
  output: number;
  /** OpenRouter only: the charge it reports */
  cost?: number;
}
