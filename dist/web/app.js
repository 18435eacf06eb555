import { existsSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { errorPage } from "./html.js";
import { readLedgerPage } from "./ledger-pager.js";
import { ledgerPage } from "./ledger-view.js";
import { LineIndexCache } from "./line-index.js";
import {
  DEFAULT_LEDGER_LIMIT,
  DEFAULT_TRANSCRIPT_LIMIT,
  LedgerQuery,
  NoQuery,
  queryError,
  RunsQuery,
  TranscriptQuery
} from "./query-schemas.js";
import { RunCatalog } from "./run-catalog.js";
import { RunSummaryCache, readRunDetails } from "./run-summary.js";
import { runSummaryPage } from "./run-view.js";
import { filterRuns, runsPage } from "./runs-view.js";
import { TimelineCache } from "./timeline.js";
import { timelinePage } from "./timeline-view.js";
import { transcriptPage } from "./transcript-view.js";
import { findTranscripts, readTranscriptPage } from "./transcripts.js";
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"];
class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
  status;
}
const isApi = (c) => c.req.path.startsWith("/api/");
function fail(c, status, message) {
  return isApi(c) ? c.json({ error: message, status }, status) : c.html(errorPage(status, message), status);
}
function parseQuery(c, schema) {
  const raw = {};
  for (const [k, vs] of Object.entries(c.req.queries())) {
    if (vs.length > 1 && k !== "type")
      throw new HttpError(400, `query parameter ${JSON.stringify(k)} is given more than once`);
    raw[k] = vs.join(",");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, `invalid query: ${queryError(parsed.error)}`);
  return parsed.data;
}
function hostName(host) {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const i = host.lastIndexOf(":");
  return (i === -1 ? host : host.slice(0, i)).toLowerCase();
}
function createDashboard(o) {
  const catalog = new RunCatalog(o.runs);
  const now = o.now ?? (() => Date.now());
  const ledgerIndexes = new LineIndexCache({ timed: true });
  const transcriptIndexes = new LineIndexCache({ timed: false });
  const timelines = new TimelineCache();
  const summaries = new RunSummaryCache();
  const app = new Hono({ strict: false });
  app.use(
    "*",
    secureHeaders({
      strictTransportSecurity: false,
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"]
      }
    })
  );
  if (o.allowedHosts) {
    const allowed = new Set(o.allowedHosts.map((h) => h.toLowerCase()));
    app.use("*", async (c, next) => {
      const host = c.req.header("host") ?? new URL(c.req.url).host;
      if (host === void 0 || !allowed.has(hostName(host)))
        return fail(
          c,
          403,
          `Host ${JSON.stringify(host ?? "")} is not served here (allowed: ${[...allowed].join(", ")})`
        );
      await next();
    });
  }
  app.onError((err, c) => {
    if (err instanceof HttpError) return fail(c, err.status, err.message);
    return fail(c, 500, err instanceof Error ? err.message : String(err));
  });
  app.notFound((c) => fail(c, 404, `no page at ${c.req.path}`));
  const entryOf = (c) => {
    const id = c.req.param("id") ?? "";
    const e = catalog.get(id);
    if (e === void 0)
      throw new HttpError(
        404,
        `unknown run id ${JSON.stringify(id)}: not one of the runs found under ${catalog.roots.join(", ")}`
      );
    return e;
  };
  const ledgerOf = (e) => {
    const p = join(e.dir, "ledger.jsonl");
    if (!existsSync(p)) throw new HttpError(404, `run ${e.id} has no ledger yet`);
    return p;
  };
  const allSummaries = async () => {
    const t = now();
    const out = [];
    for (const e of catalog.runs()) out.push(await summaries.get(e, t));
    return out;
  };
  app.get("/", (c) => c.redirect("/runs"));
  app.get("/runs", async (c) => {
    const q = parseQuery(c, RunsQuery);
    const all = await allSummaries();
    return c.html(runsPage(filterRuns(all, q), all, q));
  });
  app.get("/api/runs", async (c) => {
    const q = parseQuery(c, RunsQuery);
    const all = await allSummaries();
    const runs = filterRuns(all, q);
    return c.json({ count: runs.length, total: all.length, runs });
  });
  app.get("/runs/:id", async (c) => {
    parseQuery(c, NoQuery);
    return c.html(runSummaryPage(await readRunDetails(entryOf(c), now())));
  });
  app.get("/api/runs/:id", async (c) => {
    parseQuery(c, NoQuery);
    const d = await readRunDetails(entryOf(c), now());
    return c.json({ summary: d.summary, config: d.config, results: d.results, results_raw: d.results_raw });
  });
  app.get("/runs/:id/timeline", async (c) => {
    parseQuery(c, NoQuery);
    const e = entryOf(c);
    const tl = await timelines.get(ledgerOf(e));
    return c.html(timelinePage(await summaries.get(e, now()), tl));
  });
  app.get("/api/runs/:id/timeline", async (c) => {
    parseQuery(c, NoQuery);
    const e = entryOf(c);
    return c.json({ run: e.id, ...await timelines.get(ledgerOf(e)) });
  });
  const ledger = async (c) => {
    const q = parseQuery(c, LedgerQuery);
    const e = entryOf(c);
    const limit = q.limit ?? DEFAULT_LEDGER_LIMIT;
    const page = await readLedgerPage(ledgerIndexes, ledgerOf(e), {
      limit,
      ...q.cursor !== void 0 ? { cursor: q.cursor } : {},
      ...q.before !== void 0 ? { before: q.before } : {},
      ...q.at !== void 0 ? { at: q.at } : {},
      ...q.type !== void 0 ? { types: q.type } : {},
      ...q.actor !== void 0 ? { actor: q.actor } : {}
    });
    return { e, q, limit, page };
  };
  app.get("/runs/:id/ledger", async (c) => {
    const { e, q, limit, page } = await ledger(c);
    return c.html(ledgerPage(await summaries.get(e, now()), page, q, limit));
  });
  app.get("/api/runs/:id/ledger", async (c) => {
    const { e, q, limit, page } = await ledger(c);
    return c.json({ run: e.id, limit, type: q.type ?? null, actor: q.actor ?? null, ...page });
  });
  const transcript = async (c) => {
    const q = parseQuery(c, TranscriptQuery);
    const e = entryOf(c);
    const files = findTranscripts(e.dir);
    const file = q.file ?? 0;
    const limit = q.limit ?? DEFAULT_TRANSCRIPT_LIMIT;
    if (files.length > 0 && file >= files.length)
      throw new HttpError(404, `run ${e.id} has ${files.length} transcript file(s); no file ${file}`);
    const page = files.length === 0 ? null : await readTranscriptPage(transcriptIndexes, join(e.dir, files[file]), q.cursor ?? 0, limit);
    return { e, files, file, limit, page };
  };
  app.get("/runs/:id/transcript", async (c) => {
    const { e, files, file, limit, page } = await transcript(c);
    return c.html(transcriptPage(await summaries.get(e, now()), files, file, page, limit));
  });
  app.get("/api/runs/:id/transcript", async (c) => {
    const { e, files, file, limit, page } = await transcript(c);
    return c.json({ run: e.id, files, file, limit, ...page ?? { total: 0, rows: [], prev: null, next: null } });
  });
  return { app, catalog };
}
export {
  LOOPBACK_HOSTS,
  createDashboard
};
//# sourceMappingURL=app.js.map
