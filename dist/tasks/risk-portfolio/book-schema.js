import { z } from "zod";
import { SIDES } from "./book-engine.js";
const DayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a day is written YYYY-MM-DD").refine((s) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}, "not a calendar date");
const dayStart = (s) => Date.parse(`${s}T00:00:00Z`);
const FiledFill = z.object({
  fill_id: z.string(),
  symbol: z.string(),
  side: z.enum(SIDES),
  qty: z.number(),
  price: z.number()
}).strict();
const FiledBook = z.object({
  cash: z.number(),
  shares: z.record(z.string(), z.number()),
  costs: z.object({ commission: z.number(), slippage: z.number(), borrow: z.number() }).strict(),
  equity: z.number(),
  nav: z.number(),
  weights: z.record(z.string(), z.number()),
  fills: z.array(FiledFill).max(1e3).default([])
}).strict();
const BookFiling = z.object({ day: DayString, book: FiledBook }).strict();
export {
  BookFiling,
  DayString,
  FiledBook,
  FiledFill,
  dayStart
};
//# sourceMappingURL=book-schema.js.map
