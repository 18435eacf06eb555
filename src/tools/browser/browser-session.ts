import type { Browser, BrowserContext, Locator, Page, Route, WebSocketRoute } from "playwright-core";
import { isoInstant } from "../../common/time.js";
import { WebHostSet } from "../web-host.js";
import { launchChromium } from "./launch.js";
import { canonicalEffects, loggedUrl, type WebEffect } from "./web-effects.js";

/** The page as the agent sees it after an action. */
export interface PageView {
  url: string;
  title: string;
  /** HTTP status of the shown document; null when it was not served by a host (blank, blocked) */
  status: number | null;
  /** simulated instant (ISO) at which the page was last rendered, null before the first navigation */
  rendered_at: string | null;
  /** accessibility snapshot (YAML) with element refs like [ref=e7] for the action tools */
  snapshot: string;
  /** true when the snapshot was cut at maxSnapshotChars */
  truncated: boolean;
}

export interface ActionResult {
  page: PageView;
  /** what the action did on the web, in canonical order */
  effects: WebEffect[];
  /** set when the action failed after it had already reached the web (its effects still count) */
  error?: string;
}

/** How an action names its element: a ref from the latest snapshot, or a Playwright selector. */
export type Target = { ref: string } | { selector: string };

/** An agent mistake caught before the browser acted (bad ref, no such element): a free rejection. */
export class BrowserInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrowserInputError";
  }
}

export interface BrowserSessionOptions {
  hosts: WebHostSet;
  /** simulated time (the kernel's clock) */
  now: () => number;
  executablePath?: string;
  /** longest snapshot returned (characters; default 20,000) */
  maxSnapshotChars?: number;
  /** wall-clock safety limit of one action's element wait and settling (ms; default 10,000) */
  actionTimeoutMs?: number;
}

const REF = /^(f\d+)?e\d+$/;
/** request headers not forwarded to a host handler (the Request computes or forbids them) */
const DROP_HEADERS = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);
const SAFE = new Set(["GET", "HEAD"]);

const redirectPage = (target: string) =>
  `<!doctype html><meta charset="utf-8"><title>Redirecting</title><script>location.replace(${JSON.stringify(target)})</script>`;

/**
 * One run's browser: ONE headless Chromium, launched lazily on the first action and closed by
 * `dispose()`. Its single context routes every request: requests to the run's hosts are answered
 * in process by `WebHostSet.dispatch` (with the per-run secret header added), everything else is
 * aborted and recorded as a `blocked` effect (WebSockets too). The page clock is Playwright's fake
 * clock, paused at simulated time and moved forward to `now()` before each action, so page
 * timers fire only when simulated time passes. Actions settle (load, no request in flight, one
 * renderer round trip without new requests) before the snapshot is taken.
 */
export class BrowserSession {
  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private starting: Promise<Page> | null = null;
  private closed = false;
  private clockAt = Number.NEGATIVE_INFINITY;
  private renderedAt: number | null = null;
  private docStatus: number | null = null;
  private effects: WebEffect[] = [];
  private inflight = 0;
  private routed = 0;
  private idle: (() => void)[] = [];
  private failure: Error | null = null;
  private readonly maxChars: number;
  private readonly timeoutMs: number;

  constructor(private readonly o: BrowserSessionOptions) {
    this.maxChars = o.maxSnapshotChars ?? 20_000;
    this.timeoutMs = o.actionTimeoutMs ?? 10_000;
  }

  /** true once Chromium was launched (and until dispose) */
  get launched(): boolean {
    return this.browser !== null;
  }

  async navigate(url: string): Promise<ActionResult> {
    if (!this.o.hosts.hostOfUrl(url))
      throw new BrowserInputError(
        `the browser reaches only this task's hosts: ${this.o.hosts
          .list()
          .map((h) => `${h.name} (${WebHostSet.origin(h.name)}/)`)
          .join(", ")}; got ${JSON.stringify(url)}`,
      );
    return this.act(async (page) => {
      await page.goto(url, { waitUntil: "load", timeout: this.timeoutMs });
    });
  }

  async click(target: Target): Promise<ActionResult> {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    return this.act(() => loc.click({ timeout: this.timeoutMs }));
  }

  async fill(target: Target, text: string): Promise<ActionResult> {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    return this.act(() => loc.fill(text, { timeout: this.timeoutMs }));
  }

  async select(target: Target, value: string): Promise<ActionResult> {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    const options = await loc.evaluate((el) =>
      el instanceof HTMLSelectElement ? Array.from(el.options).map((o) => ({ value: o.value, label: o.label })) : null,
    );
    if (options === null) throw new BrowserInputError(`${describe(target)} is not a select (drop-down) element`);
    const hit = options.find((x) => x.value === value) ?? options.find((x) => x.label === value);
    if (!hit)
      throw new BrowserInputError(
        `${describe(target)} has no option ${JSON.stringify(value)}; options: ${options
          .map((x) => (x.value === x.label ? JSON.stringify(x.value) : `${JSON.stringify(x.value)} (${x.label})`))
          .join(", ")}`,
      );
    return this.act(() => loc.selectOption(hit.value, { timeout: this.timeoutMs }).then(() => undefined));
  }

  /** Submits the form of the element: clicks its first submit button when it has one, else requestSubmit(). */
  async submit(target: Target): Promise<ActionResult> {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    const form = loc.locator("xpath=ancestor-or-self::form").first();
    if ((await form.count()) === 0) throw new BrowserInputError(`${describe(target)} is not inside a form`);
    const button = form
      .locator('button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]')
      .first();
    const hasButton = (await button.count()) > 0;
    return this.act(async (p) => {
      if (hasButton) {
        await button.click({ timeout: this.timeoutMs });
        return;
      }
      // a script-started navigation is not awaited by Playwright's input actions: wait for its commit
      await Promise.all([
        p.waitForNavigation({ waitUntil: "commit", timeout: this.timeoutMs }).catch(() => null),
        form.evaluate((f) => (f as HTMLFormElement).requestSubmit()),
      ]);
    });
  }

  /** The current page, re-read without acting (no clock move, no effects). */
  async snapshot(): Promise<PageView> {
    if (!this.page) return this.blankView();
    return this.view(this.page);
  }

  /** Close Chromium (idempotent). Later actions throw. */
  async dispose(): Promise<void> {
    this.closed = true;
    const starting = this.starting;
    this.starting = null;
    if (starting) await starting.catch(() => null);
    const browser = this.browser;
    this.browser = null;
    this.context = null;
    this.page = null;
    if (browser) await browser.close().catch(() => {});
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The page, for element actions: a rejection (and no launch) before the first navigation. */
  private async opened(): Promise<Page> {
    if (!this.starting && !this.closed) throw new BrowserInputError("no page is open yet: call browser_navigate first");
    return this.ensure();
  }

  private ensure(): Promise<Page> {
    if (this.closed) return Promise.reject(new Error("the browser of this run is closed"));
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<Page> {
    const browser = await launchChromium(this.o.executablePath);
    this.browser = browser;
    try {
      const context = await browser.newContext({
        serviceWorkers: "block",
        acceptDownloads: false,
        timezoneId: "UTC",
        locale: "en-US",
        viewport: { width: 1280, height: 800 },
      });
      const t = this.o.now();
      await context.clock.install({ time: t });
      await context.clock.pauseAt(t);
      this.clockAt = t;
      await context.route("**/*", (route) => this.route(route));
      await context.routeWebSocket(/.*/, (ws) => this.blockWebSocket(ws));
      const page = await context.newPage();
      // popups and new windows are closed at once (their requests were routed like any other)
      context.on("page", (p) => {
        if (p !== page) void p.close().catch(() => {});
      });
      page.on("dialog", (d) => void d.dismiss().catch(() => {}));
      this.context = context;
      this.page = page;
      return page;
    } catch (e) {
      this.browser = null;
      await browser.close().catch(() => {});
      throw e;
    }
  }

  private async locate(page: Page, target: Target): Promise<Locator> {
    let loc: Locator;
    if ("ref" in target) {
      if (!REF.test(target.ref))
        throw new BrowserInputError(
          `ref must look like "e7" or "f2e7" (from the latest snapshot), got ${JSON.stringify(target.ref)}`,
        );
      loc = page.getByRef(target.ref);
    } else {
      try {
        loc = page.locator(target.selector);
      } catch {
        throw new BrowserInputError(`invalid selector ${JSON.stringify(target.selector)}`);
      }
    }
    let n: number;
    try {
      n = await loc.count();
    } catch {
      throw new BrowserInputError(
        `invalid selector ${JSON.stringify("selector" in target ? target.selector : target.ref)}`,
      );
    }
    if (n === 0)
      throw new BrowserInputError(
        `no element ${describe(target)} on the current page (refs change when the page changes: use the latest snapshot)`,
      );
    if (n > 1) throw new BrowserInputError(`${describe(target)} matches ${n} elements: be more specific`);
    return loc;
  }

  /** Runs one action at simulated `now`: clock forward, action, settle, snapshot, effects. */
  private async act(action: (page: Page) => Promise<void>): Promise<ActionResult> {
    const page = await this.ensure();
    const now = this.o.now();
    // requests left over from an earlier, unsettled action are attributed to this one
    let error: string | undefined;
    try {
      if (now > this.clockAt) {
        await (this.context as BrowserContext).clock.pauseAt(now);
        this.clockAt = now;
      }
      await action(page);
    } catch (e) {
      error = actionError(e);
    }
    await this.settle(page);
    if (this.failure) {
      const f = this.failure;
      this.failure = null;
      throw f;
    }
    const effects = canonicalEffects(this.effects.splice(0));
    // an action that failed without reaching the web is the agent's mistake (a free rejection)
    if (error !== undefined && effects.length === 0) throw new BrowserInputError(error);
    this.renderedAt = now;
    const view = await this.view(page);
    return error === undefined ? { page: view, effects } : { page: view, effects, error };
  }

  private async settle(page: Page): Promise<void> {
    for (let round = 0; round < 10; round++) {
      await page.waitForLoadState("load", { timeout: this.timeoutMs }).catch(() => {});
      await this.waitIdle();
      const seen = this.routed;
      // one round trip through the renderer: promise chains that were about to request have done so
      await page.evaluate(() => 0).catch(() => {});
      if (this.routed === seen && this.inflight === 0) return;
    }
  }

  private waitIdle(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async view(page: Page): Promise<PageView> {
    let snap = "";
    try {
      snap = await page.ariaSnapshot({ mode: "ai", timeout: this.timeoutMs });
    } catch (e) {
      snap = `(no snapshot: ${actionError(e)})`;
    }
    const truncated = snap.length > this.maxChars;
    return {
      url: page.url(),
      title: await page.title().catch(() => ""),
      status: this.docStatus,
      rendered_at: this.renderedAt === null ? null : isoInstant(this.renderedAt),
      snapshot: truncated ? `${snap.slice(0, this.maxChars)}\n…(snapshot truncated)` : snap,
      truncated,
    };
  }

  private blankView(): PageView {
    return { url: "about:blank", title: "", status: null, rendered_at: null, snapshot: "", truncated: false };
  }

  private blockWebSocket(ws: WebSocketRoute): void {
    this.effects.push({ kind: "blocked", method: "GET", url: loggedUrl(ws.url()), resource: "websocket" });
    void ws.close().catch(() => {});
  }

  private async route(route: Route): Promise<void> {
    const req = route.request();
    const url = req.url();
    const method = req.method().toUpperCase();
    let mainNav = false;
    try {
      mainNav = req.isNavigationRequest() && req.frame() === this.page?.mainFrame();
    } catch {
      mainNav = false;
    }
    const host = this.o.hosts.hostOfUrl(url);
    if (!host) {
      this.effects.push({ kind: "blocked", method, url: loggedUrl(url), resource: req.resourceType() });
      if (mainNav) this.docStatus = null;
      await route.abort("blockedbyclient").catch(() => {});
      return;
    }
    this.inflight++;
    this.routed++;
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(await req.allHeaders())) if (!DROP_HEADERS.has(k)) headers.set(k, v);
      for (const [k, v] of Object.entries(this.o.hosts.browserHeaders())) headers.set(k, v);
      const body = SAFE.has(method) ? null : req.postDataBuffer();
      const init: RequestInit = { method, headers };
      if (body !== null) init.body = new Uint8Array(body);
      const { response, log } = await this.o.hosts.dispatch(new Request(url, init), "browser");
      this.effects.push({
        kind: "request",
        host: log.host,
        method: log.method,
        path: log.path,
        status: log.status,
        ...(log.body === null ? {} : { body: log.body }),
      });
      if (mainNav) this.docStatus = response.status;
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location !== undefined && req.isNavigationRequest()) {
        // Chromium does not route the target of a fulfilled redirect: navigate there from the page instead
        await route.fulfill({
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: redirectPage(new URL(location, url).toString()),
        });
        return;
      }
      const out: Record<string, string> = { ...response.headers };
      if (response.setCookies.length > 0) out["set-cookie"] = response.setCookies.join("\n");
      await route.fulfill({ status: response.status, headers: out, body: response.body });
    } catch (e) {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      await route.abort("failed").catch(() => {});
    } finally {
      this.inflight--;
      if (this.inflight === 0) for (const f of this.idle.splice(0)) f();
    }
  }
}

function describe(target: Target): string {
  return "ref" in target ? `with ref ${target.ref}` : `matching ${JSON.stringify(target.selector)}`;
}

/** The first line of a Playwright error, without the API prefix and the call log. */
function actionError(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split("\n")[0] ?? msg).replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, "").replace(/^Error: /, "");
}
