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
    fill_id: z.string().describe("the execution's fill_id (get_account)"),
    symbol: z.string().describe("the execution's symbol"),
    side: z.enum(SIDES).describe("the execution's side"),
    qty: z.number().describe("the execution's quantity (units)"),
    price: z.number().describe("the execution's price (the close)"),
  })
  .strict();

/**
 * A daily book as the agent files it (the tool boundary: finite numbers, known shapes; whether the
 * numbers are right is the grader's question, so shares may be any finite number and symbols any
 * string here).
 */
export const FiledBook = z
  .object({
    cash: z.number().describe("cash after the close"),
    shares: z.record(z.string(), z.number()).describe("{symbol: integer shares} after the close (shorts negative)"),
    costs: z
      .object({
        commission: z.number().describe("commission charged at this close"),
        slippage: z.number().describe("slippage charged at this close"),
        borrow: z.number().describe("borrow debited at this close"),
      })
      .strict()
      .describe("the costs charged at this close"),
    equity: z.number().describe("cash + Σ shares × close"),
    nav: z.number().describe("equity / initial cash"),
    weights: z
      .record(z.string(), z.number())
      .describe("{symbol: shares × close / equity} (signed; 0 when equity is 0)"),
    fills: z.array(FiledFill).max(1000).default([]).describe("this close's executions, in execution order"),
  })
  .strict();
export type FiledBook = z.output<typeof FiledBook>;

export const BookFiling = z
  .object({
    day: DayString.describe("the trading day D of the book (YYYY-MM-DD)"),
    book: FiledBook.describe("the state after D's close"),
  })
  .strict();
export type BookFiling = z.output<typeof BookFiling>;
