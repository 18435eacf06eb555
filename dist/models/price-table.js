import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
const modelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  cached_input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** knowledge cutoff (YYYY-MM or YYYY-MM-DD), informational */
  cutoff: z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/).optional()
});
const MODEL_KEY = /^[a-z][a-z0-9-]*:\S+$/;
const modelPricesSchema = z.record(z.string(), modelPriceSchema).superRefine((rows, ctx) => {
  for (const key of Object.keys(rows)) {
    if (!MODEL_KEY.test(key)) {
      ctx.addIssue({ code: "custom", path: [key], message: `key "${key}" must be \`provider:model\`` });
    }
  }
});
const priceFileSchema = z.strictObject({
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  currency: z.literal("USD"),
  unit: z.literal("per_million_tokens"),
  models: modelPricesSchema
});
const DEFAULT_PRICES_PATH = fileURLToPath(new URL("./prices.yaml", import.meta.url));
function wildcardRegex(pattern) {
  const escaped = pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&")).join(".*");
  return new RegExp(`^${escaped}$`);
}
const DATED_SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;
class PriceTable {
  /**
   * @param source where the rows came from (a file path, or a description such as "inline"); named in errors
   * @param asOf the date the prices were pinned, when known
   */
  constructor(rows, source, asOf) {
    this.source = source;
    this.asOf = asOf;
    for (const [key, price] of Object.entries(rows)) {
      if (key.includes("*")) {
        this.wildcards.push({ pattern: key, re: wildcardRegex(key), literal: key.replaceAll("*", "").length, price });
      } else {
        this.exact.set(key, price);
      }
    }
  }
  source;
  asOf;
  exact = /* @__PURE__ */ new Map();
  wildcards = [];
  /** Validate an in-memory record (e.g. a test's table or a config's `model_prices`). */
  static fromRecord(rows, source = "inline price table") {
    const parsed = modelPricesSchema.safeParse(rows);
    if (!parsed.success) throw new Error(`invalid price table (${source}): ${formatIssues(parsed.error)}`);
    return new PriceTable(parsed.data, source);
  }
  /**
   * Exact row first, then the most specific matching wildcard (most literal characters; file order on
   * ties); a dated snapshot name (`gpt-4.1-mini-2025-04-14`, `claude-haiku-4-5-20251001`) with no row
   * of its own is priced as its base row (`gpt-4.1-mini`).
   */
  lookup(model) {
    const own = this.lookupExactOrWildcard(model);
    if (own) return own;
    const base = model.replace(DATED_SNAPSHOT, "");
    return base !== model ? this.lookupExactOrWildcard(base) : null;
  }
  lookupExactOrWildcard(model) {
    const hit = this.exact.get(model);
    if (hit) return hit;
    let best = null;
    for (const w of this.wildcards) {
      if (w.re.test(model) && (best === null || w.literal > best.literal)) best = w;
    }
    return best?.price ?? null;
  }
  /** The price of `model`, or a launch error naming the table and how to add a row. */
  require(model) {
    const price = this.lookup(model);
    if (price) return price;
    throw new Error(
      `model "${model}" is not in the price table ${this.source}; add a row under models: "${model}": { input: <$/M>, cached_input: <$/M>, output: <$/M> } to that file, or a model_prices entry for "${model}" in the run config`
    );
  }
  /** Cost in USD of one call with the reported usage. Cached tokens are clamped to input tokens. */
  cost(model, usage) {
    const p = this.require(model);
    const cached = Math.min(usage.cached_input_tokens, usage.input_tokens);
    const uncached = usage.input_tokens - cached;
    return (uncached * p.input + cached * p.cached_input + usage.output_tokens * p.output) / 1e6;
  }
  /** Every row, exact rows then wildcards, each group sorted by key. */
  list() {
    const exact = [...this.exact.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    const wild = [...this.wildcards].sort((a, b) => a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0);
    return [
      ...exact.map(([model, price]) => ({ model, price })),
      ...wild.map((w) => ({ model: w.pattern, price: w.price }))
    ];
  }
  /** A new table: `overrides` (validated, e.g. the run config's `model_prices`) merged over these rows. */
  withOverrides(overrides, overrideSource = "model_prices in the run config") {
    const parsed = modelPricesSchema.safeParse(overrides);
    if (!parsed.success) throw new Error(`invalid ${overrideSource}: ${formatIssues(parsed.error)}`);
    const rows = {};
    for (const { model, price } of this.list()) rows[model] = price;
    Object.assign(rows, parsed.data);
    const source = Object.keys(parsed.data).length > 0 ? `${this.source} (+ ${overrideSource})` : this.source;
    return new PriceTable(rows, source, this.asOf);
  }
}
function formatIssues(err) {
  return err.issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join(".") : "(root)"}: ${i.message}`).join("; ");
}
function loadPriceTable(path = DEFAULT_PRICES_PATH, overrides) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read price table ${path}: ${err.message}`);
  }
  let doc;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`price table ${path} is not valid YAML: ${err.message}`);
  }
  const parsed = priceFileSchema.safeParse(doc);
  if (!parsed.success) throw new Error(`invalid price table ${path}: ${formatIssues(parsed.error)}`);
  const table = new PriceTable(parsed.data.models, path, parsed.data.as_of);
  return overrides === void 0 ? table : table.withOverrides(overrides);
}
export {
  DEFAULT_PRICES_PATH,
  PriceTable,
  loadPriceTable,
  modelPriceSchema,
  modelPricesSchema
};
//# sourceMappingURL=price-table.js.map
