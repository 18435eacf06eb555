import { z } from "zod";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { FilingRecordInput } from "./filing-record.js";
import { PORTAL_API_PATH, PORTAL_HOST } from "./web/portal-host.js";
const RECORD_FILING_TOOL = "record_filing";
const LIST_FILINGS_TOOL = "list_filings";
const apiUrl = `http://${PORTAL_HOST}.relive.test${PORTAL_API_PATH}`;
function portalApiTools(hosts) {
  const record = defineTool({
    name: RECORD_FILING_TOOL,
    description: `Free. Save (or replace) your portal row for one filing, keyed by (ticker, accession): {ticker, accession, form: "8-K"|"10-Q"|"10-K", accepted_at (UTC with Z, to the minute, e.g. "2022-10-24T10:08Z"), and for a 10-Q/10-K also fy, fp ("Q1".."Q4"|"FY"), revenue (USD, the period's), eps_diluted}. Returns the saved row.`,
    args: FilingRecordInput,
    kind: "commit",
    async run(a) {
      const req = new Request(apiUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(a)
      });
      const { response } = await hosts.dispatch(req, "tool");
      const body = JSON.parse(response.body);
      if (response.status !== 201) return reject(`not saved: ${body.error ?? `status ${response.status}`}`);
      return ok(body.saved);
    }
  });
  const list = defineTool({
    name: LIST_FILINGS_TOOL,
    description: "Free. Your saved portal rows: {as_of, records: [{ticker, accession, form, accepted_at, fy, fp, revenue, eps_diluted, saved_at, saves}]}.",
    args: z.object({}).strict(),
    kind: "meta",
    async run() {
      const { response } = await hosts.dispatch(new Request(apiUrl), "tool");
      return ok(JSON.parse(response.body));
    }
  });
  return [record, list];
}
export {
  LIST_FILINGS_TOOL,
  RECORD_FILING_TOOL,
  portalApiTools
};
//# sourceMappingURL=portal-tools.js.map
