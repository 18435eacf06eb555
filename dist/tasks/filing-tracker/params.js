import { z } from "zod";
const DEFAULT_REVENUE_CONCEPTS = [
  "Revenues",
  "RevenueFromContractWithCustomerExcludingAssessedTax",
  "RevenueFromContractWithCustomerIncludingAssessedTax",
  "SalesRevenueNet",
  "SalesRevenueGoodsNet",
  "SalesRevenueServicesNet",
  "RevenuesNetOfInterestExpense",
  "RegulatedAndUnregulatedOperatingRevenue"
];
const DEFAULT_EPS_CONCEPTS = ["EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"];
const dayRange = z.tuple([z.number().int().positive(), z.number().int().positive()]).refine(([lo, hi]) => lo <= hi, { message: "range must be [low, high] with low \u2264 high" });
const FilingTrackerParams = z.object({
  /** how the agent writes to the filings portal: its browser form, or the API tools */
  portal_mode: z.enum(["browser", "api"]).default("browser"),
  /** USD per http_get call */
  http_get_usd: z.number().nonnegative().default(0),
  /** USD per acting browser call (navigate, click, fill, select, submit) */
  browser_call_usd: z.number().nonnegative().default(0),
  /** |reported − true acceptance| allowed, seconds */
  accepted_tolerance_s: z.number().nonnegative().default(60),
  /** |reported / true revenue − 1| allowed */
  revenue_tolerance: z.number().nonnegative().default(5e-4),
  /** |reported − true diluted EPS| allowed, USD per share */
  eps_tolerance: z.number().nonnegative().default(5e-3),
  revenue_concepts: z.array(z.string().min(1)).min(1).default([...DEFAULT_REVENUE_CONCEPTS]),
  eps_concepts: z.array(z.string().min(1)).min(1).default([...DEFAULT_EPS_CONCEPTS]),
  /** a 10-Q fact's period (end − start, days) must fall in this range ("about 3 months") */
  quarter_days: dayRange.default([80, 100]),
  /** a 10-K fact's period (end − start, days) must fall in this range ("about 12 months") */
  year_days: dayRange.default([350, 380])
}).strict();
const defaultFilingTrackerParams = () => FilingTrackerParams.parse({});
export {
  DEFAULT_EPS_CONCEPTS,
  DEFAULT_REVENUE_CONCEPTS,
  FilingTrackerParams,
  defaultFilingTrackerParams
};
//# sourceMappingURL=params.js.map
