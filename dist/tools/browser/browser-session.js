import { isoInstant } from "../../kernel/day.js";
import { WebHostSet } from "../web-host.js";
import { launchChromium } from "./launch.js";
import { canonicalEffects, loggedUrl } from "./web-effects.js";
class BrowserInputError extends Error {
  constructor(message) {
    super(message);
    this.name = "BrowserInputError";
  }
}
const REF = /^(f\d+)?e\d+$/;
const DROP_HEADERS = /* @__PURE__ */ new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);
const SAFE = /* @__PURE__ */ new Set(["GET", "HEAD"]);
const redirectPage = (target) => `<!doctype html><meta charset="utf-8"><title>Redirecting</title><script>location.replace(${JSON.stringify(target)})</script>`;
class BrowserSession {
  constructor(o) {
    this.o = o;
    this.maxChars = o.maxSnapshotChars ?? 2e4;
    this.timeoutMs = o.actionTimeoutMs ?? 1e4;
  }
  o;
  browser = null;
  context = null;
  page = null;
  starting = null;
  closed = false;
  clockAt = Number.NEGATIVE_INFINITY;
  renderedAt = null;
  docStatus = null;
  effects = [];
  inflight = 0;
  routed = 0;
  idle = [];
  failure = null;
  maxChars;
  timeoutMs;
  /** true once Chromium was launched (and until dispose) */
  get launched() {
    return this.browser !== null;
  }
  async navigate(url) {
    if (!this.o.hosts.hostOfUrl(url))
      throw new BrowserInputError(
        `the browser reaches only this task's hosts: ${this.o.hosts.list().map((h) => `${h.name} (${WebHostSet.origin(h.name)}/)`).join(", ")}; got ${JSON.stringify(url)}`
      );
    return this.act(async (page) => {
      await page.goto(url, { waitUntil: "load", timeout: this.timeoutMs });
    });
  }
  async click(target) {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    return this.act(() => loc.click({ timeout: this.timeoutMs }));
  }
  async fill(target, text) {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    return this.act(() => loc.fill(text, { timeout: this.timeoutMs }));
  }
  async select(target, value) {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    const options = await loc.evaluate(
      (el) => el instanceof HTMLSelectElement ? Array.from(el.options).map((o) => ({ value: o.value, label: o.label })) : null
    );
    if (options === null) throw new BrowserInputError(`${describe(target)} is not a select (drop-down) element`);
    const hit = options.find((x) => x.value === value) ?? options.find((x) => x.label === value);
    if (!hit)
      throw new BrowserInputError(
        `${describe(target)} has no option ${JSON.stringify(value)}; options: ${options.map((x) => x.value === x.label ? JSON.stringify(x.value) : `${JSON.stringify(x.value)} (${x.label})`).join(", ")}`
      );
    return this.act(() => loc.selectOption(hit.value, { timeout: this.timeoutMs }).then(() => void 0));
  }
  /** Submits the form of the element: clicks its first submit button when it has one, else requestSubmit(). */
  async submit(target) {
    const page = await this.opened();
    const loc = await this.locate(page, target);
    const form = loc.locator("xpath=ancestor-or-self::form").first();
    if (await form.count() === 0) throw new BrowserInputError(`${describe(target)} is not inside a form`);
    const button = form.locator('button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]').first();
    const hasButton = await button.count() > 0;
    return this.act(async (p) => {
      if (hasButton) {
        await button.click({ timeout: this.timeoutMs });
        return;
      }
      await Promise.all([
        p.waitForNavigation({ waitUntil: "commit", timeout: this.timeoutMs }).catch(() => null),
        form.evaluate((f) => f.requestSubmit())
      ]);
    });
  }
  /** The current page, re-read without acting (no clock move, no effects). */
  async snapshot() {
    if (!this.page) return this.blankView();
    return this.view(this.page);
  }
  /** Close Chromium (idempotent). Later actions throw. */
  async dispose() {
    this.closed = true;
    const starting = this.starting;
    this.starting = null;
    if (starting) await starting.catch(() => null);
    const browser = this.browser;
    this.browser = null;
    this.context = null;
    this.page = null;
    if (browser) await browser.close().catch(() => {
    });
  }
  // ---- internals ------------------------------------------------------------------------------
  /** The page, for element actions: a rejection (and no launch) before the first navigation. */
  async opened() {
    if (!this.starting && !this.closed) throw new BrowserInputError("no page is open yet: call browser_navigate first");
    return this.ensure();
  }
  ensure() {
    if (this.closed) return Promise.reject(new Error("the browser of this run is closed"));
    this.starting ??= this.start();
    return this.starting;
  }
  async start() {
    const browser = await launchChromium(this.o.executablePath);
    this.browser = browser;
    try {
      const context = await browser.newContext({
        serviceWorkers: "block",
        acceptDownloads: false,
        timezoneId: "UTC",
        locale: "en-US",
        viewport: { width: 1280, height: 800 }
      });
      const t = this.o.now();
      await context.clock.install({ time: t });
      await context.clock.pauseAt(t);
      this.clockAt = t;
      await context.route("**/*", (route) => this.route(route));
      await context.routeWebSocket(/.*/, (ws) => this.blockWebSocket(ws));
      const page = await context.newPage();
      context.on("page", (p) => {
        if (p !== page) void p.close().catch(() => {
        });
      });
      page.on("dialog", (d) => void d.dismiss().catch(() => {
      }));
      this.context = context;
      this.page = page;
      return page;
    } catch (e) {
      this.browser = null;
      await browser.close().catch(() => {
      });
      throw e;
    }
  }
  async locate(page, target) {
    let loc;
    if ("ref" in target) {
      if (!REF.test(target.ref))
        throw new BrowserInputError(
          `ref must look like "e7" or "f2e7" (from the latest snapshot), got ${JSON.stringify(target.ref)}`
        );
      loc = page.getByRef(target.ref);
    } else {
      try {
        loc = page.locator(target.selector);
      } catch {
        throw new BrowserInputError(`invalid selector ${JSON.stringify(target.selector)}`);
      }
    }
    let n;
    try {
      n = await loc.count();
    } catch {
      throw new BrowserInputError(
        `invalid selector ${JSON.stringify("selector" in target ? target.selector : target.ref)}`
      );
    }
    if (n === 0)
      throw new BrowserInputError(
        `no element ${describe(target)} on the current page (refs change when the page changes: use the latest snapshot)`
      );
    if (n > 1) throw new BrowserInputError(`${describe(target)} matches ${n} elements: be more specific`);
    return loc;
  }
  /** Runs one action at simulated `now`: clock forward, action, settle, snapshot, effects. */
  async act(action) {
    const page = await this.ensure();
    const now = this.o.now();
    let error;
    try {
      if (now > this.clockAt) {
        await this.context.clock.pauseAt(now);
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
    if (error !== void 0 && effects.length === 0) throw new BrowserInputError(error);
    this.renderedAt = now;
    const view = await this.view(page);
    return error === void 0 ? { page: view, effects } : { page: view, effects, error };
  }
  async settle(page) {
    for (let round = 0; round < 10; round++) {
      await page.waitForLoadState("load", { timeout: this.timeoutMs }).catch(() => {
      });
      await this.waitIdle();
      const seen = this.routed;
      await page.evaluate(() => 0).catch(() => {
      });
      if (this.routed === seen && this.inflight === 0) return;
    }
  }
  waitIdle() {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  async view(page) {
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
      snapshot: truncated ? `${snap.slice(0, this.maxChars)}
\u2026(snapshot truncated)` : snap,
      truncated
    };
  }
  blankView() {
    return { url: "about:blank", title: "", status: null, rendered_at: null, snapshot: "", truncated: false };
  }
  blockWebSocket(ws) {
    this.effects.push({ kind: "blocked", method: "GET", url: loggedUrl(ws.url()), resource: "websocket" });
    void ws.close().catch(() => {
    });
  }
  async route(route) {
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
      await route.abort("blockedbyclient").catch(() => {
      });
      return;
    }
    this.inflight++;
    this.routed++;
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(await req.allHeaders())) if (!DROP_HEADERS.has(k)) headers.set(k, v);
      for (const [k, v] of Object.entries(this.o.hosts.browserHeaders())) headers.set(k, v);
      const body = SAFE.has(method) ? null : req.postDataBuffer();
      const init = { method, headers };
      if (body !== null) init.body = new Uint8Array(body);
      const { response, log } = await this.o.hosts.dispatch(new Request(url, init), "browser");
      this.effects.push({
        kind: "request",
        host: log.host,
        method: log.method,
        path: log.path,
        status: log.status,
        ...log.body === null ? {} : { body: log.body }
      });
      if (mainNav) this.docStatus = response.status;
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location !== void 0 && req.isNavigationRequest()) {
        await route.fulfill({
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: redirectPage(new URL(location, url).toString())
        });
        return;
      }
      const out = { ...response.headers };
      if (response.setCookies.length > 0) out["set-cookie"] = response.setCookies.join("\n");
      await route.fulfill({ status: response.status, headers: out, body: response.body });
    } catch (e) {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      await route.abort("failed").catch(() => {
      });
    } finally {
      this.inflight--;
      if (this.inflight === 0) for (const f of this.idle.splice(0)) f();
    }
  }
}
function describe(target) {
  return "ref" in target ? `with ref ${target.ref}` : `matching ${JSON.stringify(target.selector)}`;
}
function actionError(e) {
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split("\n")[0] ?? msg).replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, "").replace(/^Error: /, "");
}
export {
  BrowserInputError,
  BrowserSession
};
//# sourceMappingURL=browser-session.js.map
