import { type WebToolSet, webToolSet } from "../../tools/browser/web-tool-set.js";
import type { ToolDef } from "../../tools/tool.js";
import type { TaskRunContext } from "../task.js";
import type { FilingTrackerParams } from "./params.js";
import { portalApiTools } from "./portal-tools.js";
import { blotterHost } from "./web/blotter-host.js";
import { PortalStore, portalHost } from "./web/portal-host.js";
import { secHost } from "./web/sec-host.js";

export interface FilingTrackerEnv {
  web: WebToolSet;
  portal: PortalStore;
  tools: ToolDef[];
  /** closes the browser (idempotent): the run's `dispose` */
  dispose(): Promise<void>;
}

/**
 * One run's web: the SEC replay and the blotter (read-only, from the as-of view), the portal
 * (writable by the browser, or by the API tools in `portal_mode: "api"`), `http_get`, and the
 * browser tools (browser mode) or `record_filing` / `list_filings` (API mode). The browser is
 * launched on the first browser call and closed at the kernel's end, and by `dispose` (the task
 * run's `dispose`, also called when a run fails before its end).
 */
export function createFilingTrackerEnv(ctx: TaskRunContext<FilingTrackerParams>): FilingTrackerEnv {
  const p = ctx.params;
  const portal = new PortalStore();
  const browser = p.portal_mode === "browser";
  const web = webToolSet({
    hosts: [secHost(ctx.view), blotterHost(ctx.view), portalHost(portal, browser ? "browser" : "tool")],
    now: () => ctx.view.now(),
    browser,
    http_get_usd: p.http_get_usd,
    browser_usd: p.browser_call_usd,
    closeAt: ctx.kernel,
  });
  const tools = browser ? web.tools : [...web.tools, ...portalApiTools(web.hosts)];
  return { web, portal, tools, dispose: () => web.dispose() };
}
