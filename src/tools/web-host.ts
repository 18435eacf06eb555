import { randomBytes } from "node:crypto";

/**
 * Web hosts of the browser tasks (tasks.md, "Web hosts of the browser tasks"): a host is a name and
 * an in-process, fetch-style request handler (a hono app's `fetch`, or any function of the same
 * shape). Hosts live at fictional origins `http://<name>.relive.test`; nothing is served on a
 * socket. The agent reaches them through `http_get` (read-only hosts) and the browser tools, both
 * of which go through one `WebHostSet.dispatch`, so every request is checked and logged the same
 * way.
 */

/** The reserved top-level domain of every host: `http://<name>.relive.test`. */
export const WEB_DOMAIN = "relive.test";
/** The request header carrying the per-run browser secret (added by the browser's route, never by a tool). */
export const BROWSER_SECRET_HEADER = "x-relive-browser-secret";
/** Host names: lower-case DNS labels. */
export const HOST_NAME = /^[a-z][a-z0-9-]{0,30}$/;

/** Where a request came from (set by trusted code, never by the request). */
export type WebChannel = "browser" | "http_get" | "tool";

/**
 * Who may write (any method other than GET and HEAD): `none` (read-only host), `browser` (only the
 * agent's browser, proven by the per-run secret header), `tool` (only a task tool calling the host in
 * process: the "API mode" of a writable host).
 */
export type WriteAccess = "none" | "browser" | "tool";

/** What a host handler receives beside the request: simulated time and the (verified) channel. */
export interface HostEnv {
  now: number;
  channel: WebChannel;
}

export interface WebHost {
  /** DNS label: the host is served at `http://<name>.relive.test` */
  name: string;
  /** one line for the instruction and tool docs */
  title: string;
  writes: WriteAccess;
  /** form or JSON body fields whose values are logged as "[redacted]" (passwords, one-time codes) */
  redact?: readonly string[];
  /** the handler: hono's `app.fetch` fits (`env` arrives as `c.env`). Reads the world only through an as-of view. */
  fetch(req: Request, env: HostEnv): Response | Promise<Response>;
}

/** A host's answer, read into memory. `setCookies` keeps each Set-Cookie header separately. */
export interface WebResponseData {
  status: number;
  /** lower-case names; Set-Cookie is in `setCookies` */
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
}

/** One request as it is logged (and ledgered by the tools that made it). */
export interface HostRequestLog {
  t: number;
  channel: WebChannel;
  host: string;
  method: string;
  /** path and query, e.g. `/submissions/CIK0000320193.json` */
  path: string;
  status: number;
  /** the request body of writes (redacted, at most 16 KiB), null for reads */
  body: string | null;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);
const MAX_LOGGED_BODY = 16_384;
const REDACTED = "[redacted]";

const textResponse = (status: number, body: string): WebResponseData => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8" },
  setCookies: [],
  body,
});

/** The request body of a write as it is logged: redacted fields, capped length. */
export function loggedBody(body: string, contentType: string, redact: readonly string[]): string {
  let out = body;
  if (redact.length > 0) {
    if (contentType.includes("application/x-www-form-urlencoded")) {
      const form = new URLSearchParams(body);
      for (const k of redact) if (form.has(k)) form.set(k, REDACTED);
      out = form.toString();
    } else if (contentType.includes("json")) {
      try {
        const v = JSON.parse(body) as unknown;
        if (v && typeof v === "object" && !Array.isArray(v)) {
          const o = v as Record<string, unknown>;
          for (const k of redact) if (k in o) o[k] = REDACTED;
          out = JSON.stringify(o);
        }
      } catch {
        // not JSON after all: logged as sent
      }
    }
  }
  return out.length > MAX_LOGGED_BODY ? `${out.slice(0, MAX_LOGGED_BODY)}…[truncated]` : out;
}

/**
 * The hosts of one run, with the run's browser secret and request log. `dispatch` is the only way
 * to reach a host: it resolves the origin, applies the write rule, strips the secret header, calls
 * the handler with the simulated time and logs the request.
 */
export class WebHostSet {
  private readonly byName = new Map<string, WebHost>();
  private readonly listeners: ((e: HostRequestLog) => void)[] = [];
  /** per-run secret the browser route adds to its requests; never logged, never in a tool result */
  private readonly secret: string;

  constructor(
    hosts: readonly WebHost[],
    private readonly now: () => number,
    /** only for tests that need a fixed value; a run draws a fresh one */
    secret: string = randomBytes(16).toString("hex"),
  ) {
    for (const h of hosts) {
      if (!HOST_NAME.test(h.name)) throw new Error(`web host name "${h.name}" is not a lower-case DNS label`);
      if (this.byName.has(h.name)) throw new Error(`duplicate web host "${h.name}"`);
      this.byName.set(h.name, h);
    }
    this.secret = secret;
  }

  static origin(name: string): string {
    return `http://${name}.${WEB_DOMAIN}`;
  }

  list(): WebHost[] {
    return [...this.byName.values()];
  }

  get(name: string): WebHost | undefined {
    return this.byName.get(name);
  }

  /** The host serving `url` (exactly `http://<name>.relive.test[/...]`, no port, no credentials), else null. */
  hostOfUrl(url: string): WebHost | null {
    let u: URL;
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
  browserHeaders(): Record<string, string> {
    return { [BROWSER_SECRET_HEADER]: this.secret };
  }

  /** Observe every dispatched request (after its answer). Returns the unsubscribe function. */
  subscribe(fn: (e: HostRequestLog) => void): () => void {
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
  async dispatch(req: Request, channel: WebChannel): Promise<{ response: WebResponseData; log: HostRequestLog }> {
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
    let response: WebResponseData;
    const refusal = write ? this.writeRefusal(host, channel, proven) : null;
    if (refusal) response = refusal;
    else {
      const init: RequestInit = { method, headers };
      if (bodyText !== null && method !== "GET" && method !== "HEAD") init.body = bodyText;
      const res = await host.fetch(new Request(url, init), { now: t, channel });
      if (this.now() !== t) throw new Error(`web host ${host.name} moved the clock: hosts must never wait`);
      response = await readResponse(res);
    }
    const log: HostRequestLog = {
      t,
      channel,
      host: host.name,
      method,
      path: `${url.pathname}${url.search}`,
      status: response.status,
      body: bodyText === null ? null : loggedBody(bodyText, headers.get("content-type") ?? "", host.redact ?? []),
    };
    for (const fn of this.listeners) fn(log);
    return { response, log };
  }

  private writeRefusal(host: WebHost, channel: WebChannel, proven: boolean): WebResponseData | null {
    switch (host.writes) {
      case "none":
        return textResponse(405, `${host.name} is read-only: only GET and HEAD are served`);
      case "browser":
        return channel === "browser" && proven
          ? null
          : textResponse(403, `${host.name} accepts writes only from the agent's browser`);
      case "tool":
        return channel === "tool" ? null : textResponse(403, `${host.name} accepts writes only through its API tool`);
      default: {
        const never: never = host.writes;
        throw new Error(`unknown write access ${JSON.stringify(never)}`);
      }
    }
  }
}

async function readResponse(res: Response): Promise<WebResponseData> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k !== "set-cookie") headers[k] = v;
  });
  return { status: res.status, headers, setCookies: res.headers.getSetCookie(), body: await res.text() };
}
