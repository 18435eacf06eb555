const money = (v) => v.toFixed(3);
function listModelsTable(prices) {
  const header = ["model", "input $/M", "cached $/M", "output $/M", "cutoff"];
  const rows = prices.list().map(({ model, price }) => [
    model,
    money(price.input),
    money(price.cached_input),
    money(price.output),
    price.cutoff ?? "-"
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd();
  const lines = [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)];
  const asOf = prices.asOf ? `, prices as of ${prices.asOf}` : "";
  lines.push("", `source: ${prices.source}${asOf}; unlisted models are refused at launch`);
  return `${lines.join("\n")}
`;
}
export {
  listModelsTable
};
//# sourceMappingURL=list-models.js.map
