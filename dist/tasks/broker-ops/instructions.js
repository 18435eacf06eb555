import { z } from "zod";
const STOP_FORM_PATH = "/orders/stops";
const FUNDING_FORM_PATH = "/risk/funding";
const STOP_API_PATH = "/api/stops";
const FUNDING_API_PATH = "/api/funding";
const positiveNumber = (what, max) => z.preprocess(
  (v) => typeof v === "string" && v.trim() !== "" ? Number(v.trim().replace(/,/g, "")) : v,
  z.number({ message: `${what} must be a number` }).finite({ message: `${what} must be a finite number` }).positive({ message: `${what} must be greater than 0` }).max(max, { message: `${what} must be at most ${max}` })
);
const StopInput = z.object({
  symbol: z.string().trim().toUpperCase().pipe(z.string().regex(/^[A-Z]{2,10}$/, { message: "symbol must be an asset code like BTC" })),
  side: z.string().trim().toLowerCase().pipe(z.enum(["buy", "sell"], { message: 'side must be "buy" or "sell"' })),
  qty: positiveNumber("qty", 1e6),
  trigger_price: positiveNumber("trigger_price", 1e9)
}).strict();
const FundingInput = z.object({
  call_id: z.string().trim().min(1, { message: "call_id is required" }).max(64),
  amount: positiveNumber("amount", 1e9)
}).strict();
function bodyFields(body, contentType = "") {
  const json = contentType.includes("json") || body.trimStart().startsWith("{");
  if (json) {
    try {
      const v = JSON.parse(body);
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  }
  const form = new URLSearchParams(body);
  const out = {};
  for (const [k, v] of form) out[k] = v;
  return out;
}
function fieldErrors(e) {
  return e.issues.map(
    (i) => i.path.length > 0 && !i.message.startsWith(String(i.path[0])) ? `${i.path.join(".")}: ${i.message}` : i.message
  );
}
export {
  FUNDING_API_PATH,
  FUNDING_FORM_PATH,
  FundingInput,
  STOP_API_PATH,
  STOP_FORM_PATH,
  StopInput,
  bodyFields,
  fieldErrors
};
//# sourceMappingURL=instructions.js.map
