import { z } from "zod";

/** Revenue concepts tried in this order (the first with a matching fact gives the gold revenue). */
export const DEFAULT_REVENUE_CONCEPTS: readonly string[] = [
  "Revenues",
  "RevenueFromContractWithCustomerExcludingAssessedTax",
  "RevenueFromContractWithCustomerIncludingAssessedTax",
  "SalesRevenueNet",
  "SalesRevenueGoodsNet",
  "SalesRevenueServicesNet",
  "RevenuesNetOfInterestExpense",
  "RegulatedAndUnregulatedOperatingRevenue",
];

/** Diluted EPS concepts, in order. */
export const DEFAULT_EPS_CONCEPTS: readonly string[] = ["EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"];

const dayRange = z
  .tuple([z.number().int().positive(), z.number().int().positive()])
  .refine(([lo, hi]) => lo <= hi, { message: "range must be [low, high] with low ≤ high" });

/**
 * filing-tracker parameters (run config `task_params`). Defaults follow tasks.md §7: the portal is
 * a browser form (`portal_mode: "api"` swaps the browser tools for `record_filing` / `list_filings`),
 * acceptance ±60 s, revenue ±0.05%, diluted EPS ±0.005.
 */
export const FilingTrackerParams = z
  .object({
    /** how the agent writes to the filings portal: its browser form, or the API tools */
    portal_mode: z.enum(["browser", "api"]).default("browser"),
    /** USD per http_get call */
    http_get_usd: z.number().nonnegative().default(0),
    /** USD per acting browser call (navigate, click, fill, select, submit) */
    browser_call_usd: z.number().nonnegative().default(0),
    /** |reported − true acceptance| allowed, seconds */
    accepted_tolerance_s: z.number().nonnegative().default(60),
    /** |reported / true revenue − 1| allowed */
    revenue_tolerance: z.number().nonnegative().default(0.0005),
    /** |reported − true diluted EPS| allowed, USD per share */
    eps_tolerance: z.number().nonnegative().default(0.005),
    revenue_concepts: z
      .array(z.string().min(1))
      .min(1)
      .default([...DEFAULT_REVENUE_CONCEPTS]),
    eps_concepts: z
      .array(z.string().min(1))
      .min(1)
      .default([...DEFAULT_EPS_CONCEPTS]),
    /** a 10-Q fact's period (end − start, days) must fall in this range ("about 3 months") */
    quarter_days: dayRange.default([80, 100]),
    /** a 10-K fact's period (end − start, days) must fall in this range ("about 12 months") */
    year_days: dayRange.default([350, 380]),
  })
  .strict();

export type FilingTrackerParams = z.output<typeof FilingTrackerParams>;

export const defaultFilingTrackerParams = (): FilingTrackerParams => FilingTrackerParams.parse({});
