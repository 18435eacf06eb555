import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createDashboard, type DashboardOptions, LOOPBACK_HOSTS } from "./app.js";

import { DEFAULT_HOST, DEFAULT_PORT } from "./defaults.js";

export { DEFAULT_HOST, DEFAULT_PORT };

export interface ServeOptions extends DashboardOptions {
  /** default 8737; 0 picks a free port */
  port?: number;
  /** default 127.0.0.1 (loopback only) */
  host?: string;
}

export interface DashboardServer {
  /** http://host:port/ */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const isLoopback = (h: string) => h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);

/**
 * Starts the dashboard. On a loopback host only requests whose Host header names a loopback
 * address are served (a DNS-rebinding guard), unless `allowedHosts` says otherwise.
 */
export function startDashboard(o: ServeOptions): Promise<DashboardServer> {
  const host = o.host ?? DEFAULT_HOST;
  const port = o.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be 0..65535: ${port}`);
  const allowedHosts = o.allowedHosts !== undefined ? o.allowedHosts : isLoopback(host) ? LOOPBACK_HOSTS : null;
  const { app } = createDashboard({ ...o, allowedHosts });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const shown = info.family === "IPv6" || host.includes(":") ? `[${info.address}]` : host;
      resolve({
        url: `http://${shown}:${info.port}/`,
        host,
        port: info.port,
        close: () =>
          new Promise<void>((res, rej) => {
            if ("closeAllConnections" in server) server.closeAllConnections();
            server.close((err) => (err ? rej(err) : res()));
          }),
      });
    });
    server.once("error", reject);
  });
}
