import { Hono } from "hono";
import { companiesAsOf } from "./company-as-of.js";
import {
  cikOfSegment,
  companyConceptPayload,
  companyFactsPayload,
  companyTickersPayload,
  submissionsPayload
} from "./sec-payloads.js";
const SEC_HOST = "sec";
const SEC_NOT_FOUND_BODY = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';
const JSON_TYPE = "application/json";
const TAXONOMY = /^[a-z][a-z0-9-]{0,30}$/;
const TAG = /^([A-Za-z][A-Za-z0-9_]{0,200})\.json$/;
function secHost(view) {
  const app = new Hono();
  const json = (body) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": JSON_TYPE } });
  const notFound = () => new Response(SEC_NOT_FOUND_BODY, { status: 404, headers: { "content-type": "application/xml" } });
  const companies = () => companiesAsOf(view.filings.companies());
  const company = (cik) => cik === null ? null : companies().find((c) => c.cik === cik) ?? null;
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
    if (!co || !TAXONOMY.test(taxonomy) || tag === void 0) return notFound();
    const body = companyConceptPayload(co, taxonomy, tag, view.filings.facts(co.cik));
    return body === null ? notFound() : json(body);
  });
  app.notFound(() => notFound());
  app.onError((e) => {
    throw e;
  });
  return {
    name: SEC_HOST,
    title: "SEC EDGAR JSON API replay (read-only)",
    writes: "none",
    fetch: (req, env) => app.fetch(req, env)
  };
}
export {
  SEC_HOST,
  SEC_NOT_FOUND_BODY,
  secHost
};
//# sourceMappingURL=sec-host.js.map
