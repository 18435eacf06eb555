import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Context, Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { z } from "zod";
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
  TranscriptQuery,
} from "./query-schemas.js";
import { RunCatalog, type RunEntry } from "./run-catalog.js";
import { type RunSummary, RunSummaryCache, readRunDetails } from "./run-summary.js";
import { runSummaryPage } from "./run-view.js";
import { filterRuns, runsPage } from "./runs-view.js";
import { TimelineCache } from "./timeline.js";
import { timelinePage } from "./timeline-view.js";
import { transcriptPage } from "./transcript-view.js";
import { findTranscripts, readTranscriptPage } from "./transcripts.js";

export interface DashboardOptions {
  /** RUNS arguments: runs directories (searched for run directories) or run directories */
  runs: readonly string[];
  /**
   * Host header names accepted (a guard against DNS rebinding when bound to loopback); null or
   * absent accepts any. Compared without the port.
   */
  allowedHosts?: readonly string[] | null;
  /** wall clock in epoch ms, for telling running runs from interrupted ones (default Date.now) */
  now?: () => number;
}

export interface Dashboard {
  app: Hono;
  catalog: RunCatalog;
}

/** Host names that reach a loopback-bound server from this machine. */
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"] as const;

class HttpError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

const isApi = (c: Context) => c.req.path.startsWith("/api/");

function fail(c: Context, status: 400 | 403 | 404 | 500, message: string) {
  return isApi(c) ? c.json({ error: message, status }, status) : c.html(errorPage(status, message), status);
}

/** The query string as one value per name (repeated `type` values are joined with commas). */
function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [k, vs] of Object.entries(c.req.queries())) {
    if (vs.length > 1 && k !== "type")
      throw new HttpError(400, `query parameter ${JSON.stringify(k)} is given more than once`);
    raw[k] = vs.join(",");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, `invalid query: ${queryError(parsed.error)}`);
  return parsed.data;
}

function hostName(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const i = host.lastIndexOf(":");
  return (i === -1 ? host : host.slice(0, i)).toLowerCase();
}

/** The dashboard's Hono app: HTML pages and the JSON API over the runs under `runs`. Read-only (GET only). */
export function createDashboard(o: DashboardOptions): Dashboard {
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
        frameAncestors: ["'none'"],
      },
    }),
  );
  if (o.allowedHosts) {
    const allowed = new Set(o.allowedHosts.map((h) => h.toLowerCase()));
    app.use("*", async (c, next) => {
      const host = c.req.header("host") ?? new URL(c.req.url).host;
      if (host === undefined || !allowed.has(hostName(host)))
        return fail(
          c,
          403,
          `Host ${JSON.stringify(host ?? "")} is not served here (allowed: ${[...allowed].join(", ")})`,
        );
      await next();
    });
  }
  app.onError((err, c) => {
    if (err instanceof HttpError) return fail(c, err.status, err.message);
    return fail(c, 500, err instanceof Error ? err.message : String(err));
  });
  app.notFound((c) => fail(c, 404, `no page at ${c.req.path}`));

  const entryOf = (c: Context): RunEntry => {
    const id = c.req.param("id") ?? "";
    const e = catalog.get(id);
    if (e === undefined)
      throw new HttpError(
        404,
        `unknown run id ${JSON.stringify(id)}: not one of the runs found under ${catalog.roots.join(", ")}`,
      );
    return e;
  };
  const ledgerOf = (e: RunEntry) => {
    const p = join(e.dir, "ledger.jsonl");
    if (!existsSync(p)) throw new HttpError(404, `run ${e.id} has no ledger yet`);
    return p;
  };
  const allSummaries = async (): Promise<RunSummary[]> => {
    const t = now();
    const out: RunSummary[] = [];
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
    return c.json({ run: e.id, ...(await timelines.get(ledgerOf(e))) });
  });

  const ledger = async (c: Context) => {
    const q = parseQuery(c, LedgerQuery);
    const e = entryOf(c);
    const limit = q.limit ?? DEFAULT_LEDGER_LIMIT;
    const page = await readLedgerPage(ledgerIndexes, ledgerOf(e), {
      limit,
      ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      ...(q.before !== undefined ? { before: q.before } : {}),
      ...(q.at !== undefined ? { at: q.at } : {}),
      ...(q.type !== undefined ? { types: q.type } : {}),
      ...(q.actor !== undefined ? { actor: q.actor } : {}),
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

  const transcript = async (c: Context) => {
    const q = parseQuery(c, TranscriptQuery);
    const e = entryOf(c);
    const files = findTranscripts(e.dir);
    const file = q.file ?? 0;
    const limit = q.limit ?? DEFAULT_TRANSCRIPT_LIMIT;
    if (files.length > 0 && file >= files.length)
      throw new HttpError(404, `run ${e.id} has ${files.length} transcript file(s); no file ${file}`);
    const page =
      files.length === 0
        ? null
        : await readTranscriptPage(transcriptIndexes, join(e.dir, files[file]!), q.cursor ?? 0, limit);
    return { e, files, file, limit, page };
  };
  app.get("/runs/:id/transcript", async (c) => {
    const { e, files, file, limit, page } = await transcript(c);
    return c.html(transcriptPage(await summaries.get(e, now()), files, file, page, limit));
  });
  app.get("/api/runs/:id/transcript", async (c) => {
    const { e, files, file, limit, page } = await transcript(c);
    return c.json({ run: e.id, files, file, limit, ...(page ?? { total: 0, rows: [], prev: null, next: null }) });
  });

  return { app, catalog };
}
