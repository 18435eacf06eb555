import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listModelsTable } from "../../src/models/list-models.js";
import { DEFAULT_PRICES_PATH, loadPriceTable, PriceTable } from "../../src/models/price-table.js";

const dir = mkdtempSync(join(tmpdir(), "relive-prices-"));
const writeTable = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("PriceTable", () => {
  const t = PriceTable.fromRecord(
    {
      "openai:gpt-4.1": { input: 2, cached_input: 0.5, output: 8 },
      "openai:gpt-4.1-mini": { input: 0.4, cached_input: 0.1, output: 1.6 },
      "openrouter:*": { input: 1, cached_input: 1, output: 1 },
      "openrouter:qwen/*": { input: 0.25, cached_input: 0.25, output: 0.5 },
      "ollama:*": { input: 0, cached_input: 0, output: 0 },
    },
    "test table",
  );

  it("costs a call as (input − cached)·in + cached·cached_in + output·out per million (hand-worked)", () => {
    // (10000 − 4096)·2 + 4096·0.5 + 500·8 = 11808 + 2048 + 4000 = 17856 → $0.017856
    expect(t.cost("openai:gpt-4.1", { input_tokens: 10_000, cached_input_tokens: 4096, output_tokens: 500 })).toBe(
      0.017856,
    );
    // 1,000,000 uncached input tokens at $2/M = $2; 1M output at $8/M = $8
    expect(t.cost("openai:gpt-4.1", { input_tokens: 1_000_000, cached_input_tokens: 0, output_tokens: 0 })).toBe(2);
    expect(t.cost("openai:gpt-4.1", { input_tokens: 0, cached_input_tokens: 0, output_tokens: 1_000_000 })).toBe(8);
    // fully cached: 2048·0.5 = 1024 → $0.001024
    expect(t.cost("openai:gpt-4.1", { input_tokens: 2048, cached_input_tokens: 2048, output_tokens: 0 })).toBe(
      0.001024,
    );
    // (5904·0.4 + 4096·0.1 + 500·1.6) = 2361.6 + 409.6 + 800 = 3571.2 → $0.0035712
    expect(
      t.cost("openai:gpt-4.1-mini", { input_tokens: 10_000, cached_input_tokens: 4096, output_tokens: 500 }),
    ).toBeCloseTo(0.0035712, 15);
    // cached above input is clamped to input
    expect(t.cost("openai:gpt-4.1", { input_tokens: 100, cached_input_tokens: 500, output_tokens: 0 })).toBe(0.00005);
    expect(t.cost("ollama:llama3.2", { input_tokens: 123_456, cached_input_tokens: 0, output_tokens: 789 })).toBe(0);
  });

  it("matches exact rows first, then the most specific wildcard", () => {
    expect(t.lookup("openai:gpt-4.1")?.input).toBe(2);
    expect(t.lookup("openai:gpt-4.1-nano")).toBeNull();
    expect(t.lookup("openrouter:qwen/qwen3-32b")?.input).toBe(0.25);
    expect(t.lookup("openrouter:meta/llama")?.input).toBe(1);
    expect(t.lookup("ollama:llama3.2:8b")?.input).toBe(0);
    expect(t.lookup("ollamax:foo")).toBeNull();
  });

  it("refuses an unlisted model naming the table and how to add a row", () => {
    expect(() => t.require("openai:gpt-9")).toThrow(/openai:gpt-9.*not in the price table test table.*add a row/);
    expect(() => t.cost("anthropic:x", { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 })).toThrow(
      /test table/,
    );
  });

  it("merges config overrides over the file rows", () => {
    const o = t.withOverrides({
      "openai:gpt-4.1": { input: 3, cached_input: 1, output: 9 },
      "openai:gpt-9": { input: 1, cached_input: 1, output: 1 },
    });
    expect(o.require("openai:gpt-4.1").input).toBe(3);
    expect(o.require("openai:gpt-9").output).toBe(1);
    expect(o.require("openrouter:qwen/x").input).toBe(0.25);
    expect(o.source).toContain("model_prices");
    expect(t.lookup("openai:gpt-9")).toBeNull();
    expect(() => t.withOverrides({ "openai:x": { input: -1, cached_input: 0, output: 0 } })).toThrow(
      /model_prices.*openai:x\.input/,
    );
    expect(() => t.withOverrides({ nocolon: { input: 1, cached_input: 0, output: 0 } })).toThrow(/provider:model/);
  });

  it("lists exact rows then wildcards, each sorted", () => {
    expect(t.list().map((r) => r.model)).toEqual([
      "openai:gpt-4.1",
      "openai:gpt-4.1-mini",
      "ollama:*",
      "openrouter:*",
      "openrouter:qwen/*",
    ]);
  });
});

describe("loadPriceTable", () => {
  it("loads the pinned prices.yaml: dated, local wildcards at zero, no test row", () => {
    const t = loadPriceTable();
    expect(t.source).toBe(DEFAULT_PRICES_PATH);
    expect(t.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const p of ["ollama:llama3.2", "vllm:qwen", "llamacpp:any", "local:x"]) {
      expect(t.require(p)).toEqual({ input: 0, cached_input: 0, output: 0 });
    }
    expect(t.lookup("test:model")).toBeNull();
    expect(t.require("openai:gpt-4.1-mini")).toMatchObject({ input: 0.4, cached_input: 0.1, output: 1.6 });
    expect(t.lookup("anthropic:claude-haiku-4-5")).not.toBeNull();
    expect(() => t.require("openai:not-a-model")).toThrow(DEFAULT_PRICES_PATH);
  });

  it("applies overrides given at load", () => {
    const t = loadPriceTable(undefined, { "openai:custom": { input: 1, cached_input: 0.5, output: 2 } });
    expect(t.require("openai:custom").cached_input).toBe(0.5);
  });

  it("names the file and the entry on a schema error", () => {
    const p = writeTable(
      "bad.yaml",
      'as_of: "2025-01-01"\ncurrency: USD\nunit: per_million_tokens\nmodels:\n  "openai:x": { input: "cheap", cached_input: 0, output: 0 }\n',
    );
    expect(() => loadPriceTable(p)).toThrow(
      new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*models\\.openai:x\\.input`),
    );
  });

  it("names the file on invalid YAML, a missing file and an unknown field", () => {
    const bad = writeTable("broken.yaml", "models: [unclosed\n");
    expect(() => loadPriceTable(bad)).toThrow(/broken\.yaml is not valid YAML/);
    expect(() => loadPriceTable(join(dir, "missing.yaml"))).toThrow(/cannot read price table .*missing\.yaml/);
    const extra = writeTable(
      "extra.yaml",
      'as_of: "2025-01-01"\ncurrency: USD\nunit: per_million_tokens\nmodels:\n  "openai:x": { input: 1, cached_input: 0, output: 0, discount: 2 }\n',
    );
    expect(() => loadPriceTable(extra)).toThrow(/extra\.yaml.*openai:x/);
  });
});

describe("listModelsTable", () => {
  it("prints every priced model with its prices and the source", () => {
    const t = PriceTable.fromRecord(
      {
        "openai:gpt-4.1": { input: 2, cached_input: 0.5, output: 8, cutoff: "2024-06-01" },
        "ollama:*": { input: 0, cached_input: 0, output: 0 },
      },
      "test table",
    );
    expect(listModelsTable(t)).toBe(
      [
        "model           input $/M  cached $/M  output $/M  cutoff",
        "--------------  ---------  ----------  ----------  ----------",
        "openai:gpt-4.1      2.000       0.500       8.000  2024-06-01",
        "ollama:*            0.000       0.000       0.000  -",
        "",
        "source: test table; unlisted models are refused at launch",
        "",
      ].join("\n"),
    );
    const full = listModelsTable(loadPriceTable());
    expect(full).toContain("openai:gpt-4.1-mini");
    expect(full).toContain("prices as of");
  });
});
