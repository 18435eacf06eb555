import { z } from "zod";
import { padCik, parseEdgarSubmissions, parseEdgarSubmissionsPage } from "../edgar.js";
import { parseBody } from "./pull-context.js";
import { definePullSource } from "./pull-source.js";

/**
 * EDGAR (data.sec.gov): for each CIK, `submissions/CIK##########.json`, the older pages it lists
 * in `filings.files`, and `api/xbrl/companyfacts/CIK##########.json` (a 404 there means the company
 * has no XBRL facts: recorded, and the world is built without them; a listed page that is not
 * served is recorded and logged). The SEC's fair-access rules:
 * a User-Agent naming the requester with a contact e-mail (refused without one) and at most 10
 * requests per second (refused above). Files: `edgar/CIK##########.json`,
 * `edgar/CIK##########-submissions-NNN.json`, `edgar/companyfacts/CIK##########.json` — the paths
 * `buildEdgarWorld` takes as `submissions`, `pages` and `companyfacts`.
 */

const Options = z.object({
  cik: z.array(z.string()).min(1, "give at least one --cik"),
  facts: z.boolean().default(true),
  pages: z.boolean().default(true),
});

const FactsDoc = z.looseObject({ cik: z.union([z.string(), z.number()]), facts: z.record(z.string(), z.unknown()) });
const PAGE_NAME = /^CIK\d{10}-submissions-\d{3}\.json$/;

export const edgarPull = definePullSource({
  name: "edgar",
  describe: "SEC EDGAR submissions (+ older pages) and XBRL companyfacts of the given CIKs",
  endpoints: { sec: { default: "https://data.sec.gov", env: "RELIVE_PULL_SEC_URL" } },
  defaultRate: 10,
  maxRate: 10,
  contactUserAgent: true,
  options: [
    { flags: "--cik <cik>", description: "company CIK (repeatable)", repeatable: true },
    { flags: "--no-facts", description: "skip the XBRL companyfacts" },
    { flags: "--no-pages", description: "skip the older submissions pages (filings.files)" },
  ],
  schema: Options,
  async run(ctx, o) {
    const ciks = o.cik.map((c) => {
      try {
        return padCik(c);
      } catch {
        throw new Error(`--cik ${JSON.stringify(c)}: not a CIK (up to 10 digits)`);
      }
    });
    ctx.progress.grow(ciks.length * (o.facts ? 2 : 1));
    for (const cik of ciks) {
      const name = `CIK${cik}.json`;
      const sub = await ctx.item(
        `submissions/${name}`,
        `${ctx.base("sec")}/submissions/${name}`,
        `edgar/${name}`,
        (body, url) => {
          const { pages } = parseEdgarSubmissions(body.toString("utf8"), url);
          const bad = pages.find((p) => !PAGE_NAME.test(p));
          if (bad) throw new Error(`${url}: filings.files names an unexpected page ${JSON.stringify(bad)}`);
          return { write: body, meta: { pages } };
        },
      );
      const pages = o.pages ? ((sub?.meta as { pages?: string[] } | null)?.pages ?? []) : [];
      ctx.progress.grow(pages.length);
      for (const page of pages) {
        const got = await ctx.item(
          `submissions/${page}`,
          `${ctx.base("sec")}/submissions/${page}`,
          `edgar/${page}`,
          (body, url) => {
            parseEdgarSubmissionsPage(body.toString("utf8"), url, cik);
            return { write: body, meta: null };
          },
          { allowAbsent: true },
        );
        if (!got) ctx.log(`edgar: ${page} (listed in filings.files) is not served: its older filings are skipped`);
      }
      if (o.facts)
        await ctx.item(
          `companyfacts/${name}`,
          `${ctx.base("sec")}/api/xbrl/companyfacts/${name}`,
          `edgar/companyfacts/${name}`,
          (body, url) => {
            const doc = parseBody(body, url, FactsDoc, "an EDGAR companyfacts payload");
            if (padCik(doc.cik) !== cik) throw new Error(`${url}: companyfacts of CIK ${doc.cik}, not ${cik}`);
            return { write: body, meta: null };
          },
          { allowAbsent: true },
        );
    }
  },
});
