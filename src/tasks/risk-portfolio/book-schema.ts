import { z } from "zod";
import { SIDES } from "./book-engine.js";

/** "YYYY-MM-DD", a real calendar date */
export const DayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a day is written YYYY-MM-DD")
  .refine((s) => {
    const t = Date.parse(`${s}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
  }, "not a calendar date");

export const dayStart = (s: string): number => Date.parse(`${s}T00:00:00Z`);

/** one fill as the agent books it (copied from get_account's executions) */
export const FiledFill = z
  .object({
    fill_id: z.string(),
    symbol: z.string(),
    side: z.enum(SIDES),
    qty: z.number(),
    price: z.number(),
  })
  .strict();

/**
 * A daily book as the agent files it (the tool boundary: finite numbers, known shapes; whether the
 * numbers are right is the grader's question, so shares may be any finite number and symbols any
 * string here).
 */
export const FiledBook = z
  .object({
    cash: z.number(),
    shares: z.record(z.string(), z.number()),
    costs: z.object({ commission: z.number(), slippage: z.number(), borrow: z.number() }).strict(),
    equity: z.number(),
    nav: z.number(),
    weights: z.record(z.string(), z.number()),
    fills: z.array(FiledFill).max(1000).default([]),
  })
  .strict();
export type FiledBook = z.output<typeof FiledBook>;

export const BookFiling = z.object({ day: DayString, book: FiledBook }).strict();
export type BookFiling = z.output<typeof BookFiling>;
