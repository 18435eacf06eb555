import { serve } from "@hono/node-server";
import { createDashboard, LOOPBACK_HOSTS } from "./app.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "./defaults.js";
const isLoopback = (h) => h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
function startDashboard(o) {
  const host = o.host ?? DEFAULT_HOST;
  const port = o.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be 0..65535: ${port}`);
  const allowedHosts = o.allowedHosts !== void 0 ? o.allowedHosts : isLoopback(host) ? LOOPBACK_HOSTS : null;
  const { app } = createDashboard({ ...o, allowedHosts });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      const shown = info.family === "IPv6" || host.includes(":") ? `[${info.address}]` : host;
      resolve({
        url: `http://${shown}:${info.port}/`,
        host,
        port: info.port,
        close: () => new Promise((res, rej) => {
          if ("closeAllConnections" in server) server.closeAllConnections();
          server.close((err) => err ? rej(err) : res());
        })
      });
    });
    server.once("error", reject);
  });
}
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  startDashboard
};
//# sourceMappingURL=serve.js.map
