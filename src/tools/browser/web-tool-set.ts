import type { ToolDef } from "../tool.js";
import { type WebHost, WebHostSet } from "../web-host.js";
import { BrowserSession } from "./browser-session.js";
import { browserTools } from "./browser-tools.js";
import { httpGetTool } from "./http-get-tool.js";

/** What a web task gets for one run. */
export interface WebToolSet {
  hosts: WebHostSet;
  /** null when the task asked for no browser */
  session: BrowserSession | null;
  /** `http_get` (when a read-only host exists) and, with `browser`, the six browser tools */
  tools: ToolDef[];
  /** closes the browser (idempotent); also scheduled at the kernel's end when `closeAt` is given */
  dispose(): Promise<void>;
}

export interface WebToolSetOptions {
  hosts: readonly WebHost[];
  /** simulated time */
  now: () => number;
  browser: boolean;
  http_get_usd: number;
  browser_usd: number;
  /**
   * Where to close the browser early: the run's kernel (`ctx.kernel`), so it closes at the kernel's
   * end instant (after the last action, before the actors' end wakes). Tasks also register `dispose`
   * with `ctx.onDispose`, so a run that fails before its end closes it too.
   */
  closeAt?: { end: number; at(t: number, fn: (t: number) => void | Promise<void>): void };
  executablePath?: string;
}

/** Hosts + `http_get` + (optionally) one lazily launched browser and its tools, for one run. */
export function webToolSet(o: WebToolSetOptions): WebToolSet {
  const hosts = new WebHostSet(o.hosts, o.now);
  const session = o.browser
    ? new BrowserSession({ hosts, now: o.now, ...(o.executablePath ? { executablePath: o.executablePath } : {}) })
    : null;
  const tools: ToolDef[] = [];
  if (hosts.list().some((h) => h.writes === "none")) tools.push(httpGetTool(hosts, { price_usd: o.http_get_usd }));
  if (session) {
    const hostsDoc = hosts
      .list()
      .map((h) => `${WebHostSet.origin(h.name)}/ (${h.title})`)
      .join(", ");
    tools.push(...browserTools(session, { price_usd: o.browser_usd, hostsDoc }));
  }
  const dispose = async () => {
    await session?.dispose();
  };
  if (session && o.closeAt) o.closeAt.at(o.closeAt.end, dispose);
  return { hosts, session, tools, dispose };
}
