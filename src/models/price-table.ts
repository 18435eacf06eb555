/**
 * The pinned model price table (`prices.yaml`, keyed by `provider:model`, `*` wildcards allowed).
 * Prices are $ per million tokens. Cost of a call = ((input − cached)·input + cached·cached_input +
 * output·output) / 1e6, from the provider-reported usage.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Usage } from "./model.js";

export const modelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  cached_input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** knowledge cutoff (YYYY-MM or YYYY-MM-DD), informational */
  cutoff: z
    .string()
    .regex(/^\d{4}-\d{2}(-\d{2})?$/)
    .optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** Keys: `provider:model` or a pattern with `*` (any run of characters), e.g. `ollama:*`. */
const MODEL_KEY = /^[a-z][a-z0-9-]*:\S+$/;

export const modelPricesSchema = z.record(z.string(), modelPriceSchema).superRefine((rows, ctx) => {
  for (const key of Object.keys(rows)) {
    if (!MODEL_KEY.test(key)) {
      ctx.addIssue({ code: "custom", path: [key], message: `key "${key}" must be \`provider:model\`` });
    }
  }
});
export type ModelPrices = z.infer<typeof modelPricesSchema>;

/** Embedding models (hybrid search's endpoint vectors): $ per million input tokens. */
export const embeddingPricesSchema = z.record(z.string(), z.strictObject({ input: z.number().nonnegative() }));

const priceFileSchema = z.strictObject({
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  currency: z.literal("USD"),
  unit: z.literal("per_million_tokens"),
  models: modelPricesSchema,
  embeddings: embeddingPricesSchema.optional(),
});

/**
 * The default table shipped beside this file (the path is written from the parent folder so it
 * also resolves from the bundles in dist/bundles/, see scripts/build.mjs).
 */
export const DEFAULT_PRICES_PATH = fileURLToPath(new URL("../models/prices.yaml", import.meta.url));

function wildcardRegex(pattern: string): RegExp {
  const escaped = pattern
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`);
}

/** a trailing snapshot date: `-2025-04-14` or `-20251001` */
const DATED_SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

export class PriceTable {
  private readonly exact = new Map<string, ModelPrice>();
  private readonly wildcards: { pattern: string; re: RegExp; literal: number; price: ModelPrice }[] = [];

  /**
   * @param source where the rows came from (a file path, or a description such as "inline"); named in errors
   * @param asOf the date the prices were pinned, when known
   */
  constructor(
    rows: ModelPrices,
    readonly source: string,
    readonly asOf?: string,
  ) {
    for (const [key, price] of Object.entries(rows)) {
      if (key.includes("*")) {
        this.wildcards.push({ pattern: key, re: wildcardRegex(key), literal: key.replaceAll("*", "").length, price });
      } else {
        this.exact.set(key, price);
      }
    }
  }

  /** Validate an in-memory record (e.g. a test's table or a config's `model_prices`). */
  static fromRecord(rows: unknown, source = "inline price table"): PriceTable {
    const parsed = modelPricesSchema.safeParse(rows);
    if (!parsed.success) throw new Error(`invalid price table (${source}): ${formatIssues(parsed.error)}`);
    return new PriceTable(parsed.data, source);
  }

  /**
   * Exact row first, then the most specific matching wildcard (most literal characters; file order on
   * ties); a dated snapshot name (`gpt-4.1-mini-2025-04-14`, `claude-haiku-4-5-20251001`) with no row
   * of its own is priced as its base row (`gpt-4.1-mini`).
   */
  lookup(model: string): ModelPrice | null {
    const own = this.lookupExactOrWildcard(model);
    if (own) return own;
    const base = model.replace(DATED_SNAPSHOT, "");
    return base !== model ? this.lookupExactOrWildcard(base) : null;
  }

  private lookupExactOrWildcard(model: string): ModelPrice | null {
    const hit = this.exact.get(model);
    if (hit) return hit;
    let best: { literal: number; price: ModelPrice } | null = null;
    for (const w of this.wildcards) {
      if (w.re.test(model) && (best === null || w.literal > best.literal)) best = w;
    }
    return best?.price ?? null;
  }

  /** The price of `model`, or a launch error naming the table and how to add a row. */
  require(model: string): ModelPrice {
    const price = this.lookup(model);
    if (price) return price;
    throw new Error(
      `model "${model}" is not in the price table ${this.source}; add a row under models: ` +
        `"${model}": { input: <$/M>, cached_input: <$/M>, output: <$/M> } to that file, ` +
        `or a model_prices entry for "${model}" in the run config`,
    );
  }

  /** Cost in USD of one call with the reported usage. Cached tokens are clamped to input tokens. */
  cost(model: string, usage: Usage): number {
    const p = this.require(model);
    const cached = Math.min(usage.cached_input_tokens, usage.input_tokens);
    const uncached = usage.input_tokens - cached;
    return (uncached * p.input + cached * p.cached_input + usage.output_tokens * p.output) / 1_000_000;
  }

  /** Every row, exact rows then wildcards, each group sorted by key. */
  list(): { model: string; price: ModelPrice }[] {
    const exact = [...this.exact.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const wild = [...this.wildcards].sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
    return [
      ...exact.map(([model, price]) => ({ model, price })),
      ...wild.map((w) => ({ model: w.pattern, price: w.price })),
    ];
  }

  /** A new table: `overrides` (validated, e.g. the run config's `model_prices`) merged over these rows. */
  withOverrides(overrides: unknown, overrideSource = "model_prices in the run config"): PriceTable {
    const parsed = modelPricesSchema.safeParse(overrides);
    if (!parsed.success) throw new Error(`invalid ${overrideSource}: ${formatIssues(parsed.error)}`);
    const rows: ModelPrices = {};
    for (const { model, price } of this.list()) rows[model] = price;
    Object.assign(rows, parsed.data);
    const source = Object.keys(parsed.data).length > 0 ? `${this.source} (+ ${overrideSource})` : this.source;
    return new PriceTable(rows, source, this.asOf);
  }
}

function formatIssues(err: z.ZodError): string {
  return err.issues
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

/** Load and validate a price file (default: the pinned `prices.yaml`); `overrides` are merged over it. */
export function loadPriceTable(path: string = DEFAULT_PRICES_PATH, overrides?: unknown): PriceTable {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read price table ${path}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`price table ${path} is not valid YAML: ${(err as Error).message}`);
  }
  const parsed = priceFileSchema.safeParse(doc);
  if (!parsed.success) throw new Error(`invalid price table ${path}: ${formatIssues(parsed.error)}`);
  const table = new PriceTable(parsed.data.models, path, parsed.data.as_of);
  return overrides === undefined ? table : table.withOverrides(overrides);
}

/**
 * The price of an embedding model (`provider:model`, the `embeddings` rows of the price file; `*`
 * patterns allowed, the longest literal part wins): $ per million input tokens. Unlisted models
 * are refused, like unlisted chat models.
 */
export function embeddingPrice(model: string, path: string = DEFAULT_PRICES_PATH): number {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`cannot read price table ${path}: ${(err as Error).message}`);
  }
  const parsed = priceFileSchema.safeParse(doc);
  if (!parsed.success) throw new Error(`invalid price table ${path}: ${formatIssues(parsed.error)}`);
  const rows = parsed.data.embeddings ?? {};
  const exact = rows[model];
  if (exact) return exact.input;
  let best: { literal: number; input: number } | null = null;
  for (const [pattern, row] of Object.entries(rows)) {
    if (!pattern.includes("*") || !wildcardRegex(pattern).test(model)) continue;
    const literal = pattern.replaceAll("*", "").length;
    if (best === null || literal > best.literal) best = { literal, input: row.input };
  }
  if (best === null) throw new Error(`embedding model "${model}" has no price in ${path} (embeddings): add a row`);
  return best.input;
}
