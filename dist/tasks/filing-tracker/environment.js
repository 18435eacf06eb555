import { webToolSet } from "../../tools/browser/web-tool-set.js";
import { portalApiTools } from "./portal-tools.js";
import { blotterHost } from "./web/blotter-host.js";
import { PortalStore, portalHost } from "./web/portal-host.js";
import { secHost } from "./web/sec-host.js";
function createFilingTrackerEnv(ctx) {
  const p = ctx.params;
  const portal = new PortalStore();
  const browser = p.portal_mode === "browser";
  const web = webToolSet({
    hosts: [secHost(ctx.view), blotterHost(ctx.view), portalHost(portal, browser ? "browser" : "tool")],
    now: () => ctx.view.now(),
    browser,
    http_get_usd: p.http_get_usd,
    browser_usd: p.browser_call_usd,
    closeAt: ctx.kernel
  });
  const tools = browser ? web.tools : [...web.tools, ...portalApiTools(web.hosts)];
  return { web, portal, tools, dispose: () => web.dispose() };
}
export {
  createFilingTrackerEnv
};
//# sourceMappingURL=environment.js.map
