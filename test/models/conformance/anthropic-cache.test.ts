/**
 * Conformance: conversation caching as users pay for it. A 28-day cron run of price-check against the
 * Anthropic-style server, which computes cache hits honestly (the longest prefix an earlier request
 * wrote at a cache_control breakpoint, up to this request's last breakpoint), must read at least 80%
 * of its input from the cache. The measured share is printed.
 */
import { describe, expect, it } from "vitest";
import { parseRunConfig } from "../../../src/run/config.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { medianPollScript } from "../../agent/support/policy-responder.js";
import { options } from "../../run/helpers.js";
import { checkExactBilling } from "./billing.js";
import { policyBrain } from "./brain.js";
import { startStyle } from "./support.js";

describe("conformance: Anthropic conversation caching", () => {
  it("a 28-day price-check cron run reads >= 80% of its input from the cache", async () => {
    const s = await startStyle("anthropic", policyBrain(medianPollScript(), "cron"));
    try {
      const cfg = parseRunConfig({
        task: "price-check",
        episode: "synth-28d",
        task_params: { symbols: ["BTC-USD"] },
        agent: { model: s.model, trigger: "cron" },
        // the whole 28 days are measured: a 60k-token context resent every call costs about $20 even when cached
        budget_usd: 200,
        domain_budgets: { llm: 100 },
      });
      const res = await runFromConfig(cfg, { ...options(), env: s.env, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      const t = res.results.resources.tokens;
      const share = t.cached_input / t.input;
      process.stdout.write(
        `anthropic cache: ${t.cached_input}/${t.input} input tokens read from cache (${(share * 100).toFixed(1)}%), ` +
          `${res.results.resources.llm_calls} calls, LLM $${res.results.resources.llm_usd.toFixed(4)}\n`,
      );
      expect(share).toBeGreaterThanOrEqual(0.8);
      expect(res.results.flags.llm_budget_exhausted).toBe(false);
      expect(res.results.resources.llm_usd).toBeCloseTo(checkExactBilling(res.runDir, s, s.model), 9);
    } finally {
      await s.close();
    }
  }, 1_800_000);
});
