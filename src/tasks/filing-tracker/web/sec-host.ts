import { Hono } from "hono";
import type { HostEnv, WebHost } from "../../../tools/web-host.js";
import type { AsOfView } from "../../../world/as-of-view.js";
import type { CompanyRow } from "../../../world/types.js";
import { companiesAsOf } from "./company-as-of.js";
import {
  cikOfSegment,
  companyConceptPayload,
  companyFactsPayload,
  companyTickersPayload,
  submissionsPayload,
} from "./sec-payloads.js";

export const SEC_HOST = "sec";

/** The answer of every unknown path and of every CIK or concept with nothing visible yet (one body: no probe tells them apart). */
export const SEC_NOT_FOUND_BODY =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';

const JSON_TYPE = "application/json";
const TAXONOMY = /^[a-z][a-z0-9-]{0,30}$/;
const TAG = /^([A-Za-z][A-Za-z0-9_]{0,200})\.json$/;

/**
 * The read-only SEC replay (tasks.md §7) at `http://sec.relive.test`: the real API's paths and
 * payload shapes (data.sec.gov and www.sec.gov folded into one host), served from the as-of view
 * only, so a filing and every fact carrying its accession appear at the filing's acceptance.
 *
 * - `GET /files/company_tickers.json`
 * - `GET /submissions/CIK##########.json` (acceptanceDateTime in EDGAR's format: New York time with a Z)
 * - `GET /api/xbrl/companyfacts/CIK##########.json`
 * - `GET /api/xbrl/companyconcept/CIK##########/{taxonomy}/{tag}.json`
 *
 * Anything else, and any CIK, concept or company without visible data, is 404 with one fixed XML
 * body (modelled on the real API's S3 error).
 */
export function secHost(view: AsOfView): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { "content-type": JSON_TYPE } });
  const notFound = () =>
    new Response(SEC_NOT_FOUND_BODY, { status: 404, headers: { "content-type": "application/xml" } });
  // the ticker and name valid now: each CIK's latest row visible now
  const companies = () => companiesAsOf(view.filings.companies());
  const company = (cik: string | null): CompanyRow | null =>
    cik === null ? null : (companies().find((c) => c.cik === cik) ?? null);

  app.get("/files/company_tickers.json", () => json(companyTickersPayload(companies())));
  app.get("/submissions/:file", (c) => {
    const co = company(cikOfSegment(c.req.param("file"), ".json"));
    if (!co) return notFound();
    return json(submissionsPayload(co, view.filings.submissions(co.cik)));
  });
  app.get("/api/xbrl/companyfacts/:file", (c) => {
    const co = company(cikOfSegment(c.req.param("file"), ".json"));
    if (!co) return notFound();
    const body = companyFactsPayload(co, view.filings.facts(co.cik));
    return body === null ? notFound() : json(body);
  });
  app.get("/api/xbrl/companyconcept/:cik/:taxonomy/:tag", (c) => {
    const co = company(cikOfSegment(c.req.param("cik"), ""));
    const taxonomy = c.req.param("taxonomy");
    const tag = TAG.exec(c.req.param("tag"))?.[1];
    if (!co || !TAXONOMY.test(taxonomy) || tag === undefined) return notFound();
    const body = companyConceptPayload(co, taxonomy, tag, view.filings.facts(co.cik));
    return body === null ? notFound() : json(body);
  });
  app.notFound(() => notFound());
  // a failing handler is a system error, not a 500 for the agent
  app.onError((e) => {
    throw e;
  });
  return {
    name: SEC_HOST,
    title: "SEC EDGAR JSON API replay (read-only)",
    writes: "none",
    fetch: (req, env) => app.fetch(req, env),
  };
}
