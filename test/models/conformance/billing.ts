/** Exact billing: every successful reply is ledgered with the server's reported tokens, costed at the price row. */
import { join } from "node:path";
import { expect } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { loadPriceTable } from "../../../src/models/price-table.js";
import type { Running } from "./support.js";

/** Checks each ok llm_call against what the server billed, in order; returns the expected total. */
export function checkExactBilling(runDir: string, s: Running, priceKey: string) {
  const table = loadPriceTable(undefined, s.model_prices);
  const p = table.require(priceKey);
  const ok = readLedger(join(runDir, "ledger.jsonl")).flatMap((e) =>
    e.type === "llm_call" && e.status === "ok" ? [e] : [],
  );
  expect(ok).toHaveLength(s.billed.length);
  let total = 0;
  ok.forEach((e, i) => {
    const b = s.billed[i]!;
    expect([e.input_tokens, e.cached_input_tokens, e.output_tokens]).toEqual([b.input, b.cached, b.output]);
    const cost = ((b.input - b.cached) * p.input + b.cached * p.cached_input + b.output * p.output) / 1e6;
    expect(e.cost_usd).toBeCloseTo(cost, 12);
    if (b.cost !== undefined) expect(e.provider_cost_usd).toBeCloseTo(b.cost, 12);
    total += cost;
  });
  return total;
}
