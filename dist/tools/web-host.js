import { randomBytes } from "node:crypto";
const WEB_DOMAIN = "relive.test";
const BROWSER_SECRET_HEADER = "x-relive-browser-secret";
const HOST_NAME = /^[a-z][a-z0-9-]{0,30}$/;
const SAFE_METHODS = /* @__PURE__ */ new Set(["GET", "HEAD"]);
const MAX_LOGGED_BODY = 16384;
const REDACTED = "[redacted]";
const textResponse = (status, body) => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8" },
  setCookies: [],
  body
});
function loggedBody(body, contentType, redact) {
  let out = body;
  if (redact.length > 0) {
    if (contentType.includes("application/x-www-form-urlencoded")) {
      const form = new URLSearchParams(body);
      for (const k of redact) if (form.has(k)) form.set(k, REDACTED);
      out = form.toString();
    } else if (contentType.includes("json")) {
      try {
        const v = JSON.parse(body);
        if (v && typeof v === "object" && !Array.isArray(v)) {
          const o = v;
          for (const k of redact) if (k in o) o[k] = REDACTED;
          out = JSON.stringify(o);
        }
      } catch {
      }
    }
  }
  return out.length > MAX_LOGGED_BODY ? `${out.slice(0, MAX_LOGGED_BODY)}\u2026[truncated]` : out;
}
class WebHostSet {
  constructor(hosts, now, secret = randomBytes(16).toString("hex")) {
    this.now = now;
    for (const h of hosts) {
      if (!HOST_NAME.test(h.name)) throw new Error(`web host name "${h.name}" is not a lower-case DNS label`);
      if (this.byName.has(h.name)) throw new Error(`duplicate web host "${h.name}"`);
      this.byName.set(h.name, h);
    }
    this.secret = secret;
  }
  now;
  byName = /* @__PURE__ */ new Map();
  listeners = [];
  /** per-run secret the browser route adds to its requests; never logged, never in a tool result */
  secret;
  static origin(name) {
    return `http://${name}.${WEB_DOMAIN}`;
  }
  list() {
    return [...this.byName.values()];
  }
  get(name) {
    return this.byName.get(name);
  }
  /** The host serving `url` (exactly `http://<name>.relive.test[/...]`, no port, no credentials), else null. */
  hostOfUrl(url) {
    let u;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    if (u.protocol !== "http:" || u.port !== "" || u.username !== "" || u.password !== "") return null;
    const suffix = `.${WEB_DOMAIN}`;
    if (!u.hostname.endsWith(suffix)) return null;
    return this.byName.get(u.hostname.slice(0, -suffix.length)) ?? null;
  }
  /** Headers the browser adds to every request it routes to a host (the proof that a write is the browser's). */
  browserHeaders() {
    return { [BROWSER_SECRET_HEADER]: this.secret };
  }
  /** Observe every dispatched request (after its answer). Returns the unsubscribe function. */
  subscribe(fn) {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
  /**
   * Serve `req` (its URL must be a host's origin) from `channel`. Writes to a read-only host get 405;
   * writes to a writable host from anyone but its writer get 403 (a browser write must carry the
   * per-run secret header). The secret header is removed before the handler sees the request.
   */
  async dispatch(req, channel) {
    const host = this.hostOfUrl(req.url);
    if (!host) throw new Error(`internal: dispatch to a URL that is no task host: ${req.url}`);
    const url = new URL(req.url);
    const method = req.method.toUpperCase();
    const headers = new Headers(req.headers);
    const proven = headers.get(BROWSER_SECRET_HEADER) === this.secret;
    headers.delete(BROWSER_SECRET_HEADER);
    const write = !SAFE_METHODS.has(method);
    const bodyText = write ? await req.text() : null;
    const t = this.now();
    let response;
    const refusal = write ? this.writeRefusal(host, channel, proven) : null;
    if (refusal) response = refusal;
    else {
      const init = { method, headers };
      if (bodyText !== null && method !== "GET" && method !== "HEAD") init.body = bodyText;
      const res = await host.fetch(new Request(url, init), { now: t, channel });
      if (this.now() !== t) throw new Error(`web host ${host.name} moved the clock: hosts must never wait`);
      response = await readResponse(res);
    }
    const log = {
      t,
      channel,
      host: host.name,
      method,
      path: `${url.pathname}${url.search}`,
      status: response.status,
      body: bodyText === null ? null : loggedBody(bodyText, headers.get("content-type") ?? "", host.redact ?? [])
    };
    for (const fn of this.listeners) fn(log);
    return { response, log };
  }
  writeRefusal(host, channel, proven) {
    switch (host.writes) {
      case "none":
        return textResponse(405, `${host.name} is read-only: only GET and HEAD are served`);
      case "browser":
        return channel === "browser" && proven ? null : textResponse(403, `${host.name} accepts writes only from the agent's browser`);
      case "tool":
        return channel === "tool" ? null : textResponse(403, `${host.name} accepts writes only through its API tool`);
      default: {
        const never = host.writes;
        throw new Error(`unknown write access ${JSON.stringify(never)}`);
      }
    }
  }
}
async function readResponse(res) {
  const headers = {};
  res.headers.forEach((v, k) => {
    if (k !== "set-cookie") headers[k] = v;
  });
  return { status: res.status, headers, setCookies: res.headers.getSetCookie(), body: await res.text() };
}
export {
  BROWSER_SECRET_HEADER,
  HOST_NAME,
  WEB_DOMAIN,
  WebHostSet,
  loggedBody
};
//# sourceMappingURL=web-host.js.map
