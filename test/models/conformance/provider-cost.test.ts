/**
 * Conformance: cost as users pay it through OpenRouter. Its `usage.cost` is kept beside the booked
 * cost; a provider charging more than 5% above the price table sets `provider_cost_mismatch` and the
 * CLI's warning; an `openrouter:anthropic/*` model's requests carry cache breakpoints.
 */
import { describe, expect, it } from "vitest";
import { resultWarnings, scoreTable } from "../../../src/cli/format.js";
import { parseRunConfig } from "../../../src/run/config.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { topCommentsScript } from "../../agent/support/policy-responder.js";
import { options } from "../../run/helpers.js";
import { policyBrain } from "./brain.js";
import { startOpenRouterServer } from "./servers/openrouter-server.js";
import { KEY } from "./support.js";

describe("conformance: provider-reported cost", () => {
  it("a 10% overcharge is flagged and warned about; exact reports are not; anthropic/* requests carry cache_control", async () => {
    for (const overcharge of [1, 1.1]) {
      const s = await startOpenRouterServer({
        brain: policyBrain(topCommentsScript(), "sleep"),
        model: "anthropic/claude-haiku-4.5",
        apiKey: KEY,
        price: { input: 1, cached_input: 0.1, output: 5 },
        overcharge,
      });
      try {
        const cfg = parseRunConfig({
          task: "daily-digest",
          sim_start: "2026-03-01T00:00:00Z",
          sim_end: "2026-03-02T00:00:00Z",
          agent: { model: "openrouter:anthropic/claude-haiku-4.5" },
        });
        const res = await runFromConfig(cfg, {
          ...options(),
          env: { OPENROUTER_BASE_URL: s.url, OPENROUTER_API_KEY: KEY },
        });
        const r = res.results.resources;
        const charged = s.billed.reduce((a, b) => a + (b.cost ?? 0), 0);
        expect(r.provider_cost_usd).toBeCloseTo(charged, 12);
        expect(r.provider_cost_booked_usd).toBeCloseTo(r.llm_usd, 12);
        expect(r.provider_cost_diff).toBeCloseTo(overcharge - 1, 9);
        expect(res.results.flags.provider_cost_mismatch).toBe(overcharge > 1);
        expect(resultWarnings(res.results).some((w) => w.includes("differs from the booked"))).toBe(overcharge > 1);
        expect(scoreTable(res.results, res.runDir)).toContain("provider-reported cost");
        expect(s.cacheControlSeen).toBe(s.chatRequests.length);
        // the booked cost uses the cached rate on what OpenRouter reported as cached
        expect(r.tokens.cached_input).toBeGreaterThan(0);
      } finally {
        await s.close();
      }
    }
  }, 900_000);
});
