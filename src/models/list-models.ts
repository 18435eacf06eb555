/** `relive models`: the priced models as a plain-text table. */
import type { ModelPrice, PriceTable } from "./price-table.js";

const money = (v: number) => v.toFixed(3);

export function listModelsTable(prices: PriceTable): string {
  const header = ["model", "input $/M", "cached $/M", "output $/M", "cutoff"];
  const rows = prices
    .list()
    .map(({ model, price }: { model: string; price: ModelPrice }) => [
      model,
      money(price.input),
      money(price.cached_input),
      money(price.output),
      price.cutoff ?? "-",
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  const lines = [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)];
  const asOf = prices.asOf ? `, prices as of ${prices.asOf}` : "";
  lines.push("", `source: ${prices.source}${asOf}; unlisted models are refused at launch`);
  return `${lines.join("\n")}\n`;
}
