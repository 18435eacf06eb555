import { WebHostSet } from "../web-host.js";
import { BrowserSession } from "./browser-session.js";
import { browserTools } from "./browser-tools.js";
import { httpGetTool } from "./http-get-tool.js";
function webToolSet(o) {
  const hosts = new WebHostSet(o.hosts, o.now);
  const session = o.browser ? new BrowserSession({ hosts, now: o.now, ...o.executablePath ? { executablePath: o.executablePath } : {} }) : null;
  const tools = [];
  if (hosts.list().some((h) => h.writes === "none")) tools.push(httpGetTool(hosts, { price_usd: o.http_get_usd }));
  if (session) {
    const hostsDoc = hosts.list().map((h) => `${WebHostSet.origin(h.name)}/ (${h.title})`).join(", ");
    tools.push(...browserTools(session, { price_usd: o.browser_usd, hostsDoc }));
  }
  const dispose = async () => {
    await session?.dispose();
  };
  if (session && o.closeAt) o.closeAt.at(o.closeAt.end, dispose);
  return { hosts, session, tools, dispose };
}
export {
  webToolSet
};
//# sourceMappingURL=web-tool-set.js.map
