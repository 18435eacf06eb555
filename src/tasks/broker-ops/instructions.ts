import { z } from "zod";

/** Paths of the broker site that record the desk's instructions (form targets and API). */
export const STOP_FORM_PATH = "/orders/stops";
export const FUNDING_FORM_PATH = "/risk/funding";
export const STOP_API_PATH = "/api/stops";
export const FUNDING_API_PATH = "/api/funding";

const positiveNumber = (what: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim().replace(/,/g, "")) : v),
    z
      .number({ message: `${what} must be a number` })
      .finite({ message: `${what} must be a finite number` })
      .positive({ message: `${what} must be greater than 0` })
      .max(max, { message: `${what} must be at most ${max}` }),
  );

/** A protective stop order as the site accepts it (form fields or JSON). */
export const StopInput = z
  .object({
    symbol: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.string().regex(/^[A-Z]{2,10}$/, { message: "symbol must be an asset code like BTC" })),
    side: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["buy", "sell"], { message: 'side must be "buy" or "sell"' })),
    qty: positiveNumber("qty", 1_000_000),
    trigger_price: positiveNumber("trigger_price", 1_000_000_000),
  })
  .strict();
export type StopInput = z.output<typeof StopInput>;

/** A funding instruction for a margin call (form fields or JSON). */
export const FundingInput = z
  .object({
    call_id: z.string().trim().min(1, { message: "call_id is required" }).max(64),
    amount: positiveNumber("amount", 1_000_000_000),
  })
  .strict();
export type FundingInput = z.output<typeof FundingInput>;

/** A request body as fields: form-urlencoded, or a JSON object (by content type or by its first character). */
export function bodyFields(body: string, contentType = ""): Record<string, unknown> | null {
  const json = contentType.includes("json") || body.trimStart().startsWith("{");
  if (json) {
    try {
      const v = JSON.parse(body) as unknown;
      return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  const form = new URLSearchParams(body);
  const out: Record<string, unknown> = {};
  for (const [k, v] of form) out[k] = v;
  return out;
}

/** The errors of a failed parse, one line each, naming the field. */
export function fieldErrors(e: z.ZodError): string[] {
  return e.issues.map((i) =>
    i.path.length > 0 && !i.message.startsWith(String(i.path[0])) ? `${i.path.join(".")}: ${i.message}` : i.message,
  );
}
