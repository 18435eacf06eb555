/**
 * Conformance: daily-digest and price-check run to completion under every trigger against a server of
 * every provider style, each with its quirks (see servers/), with exact billing: every successful
 * reply is ledgered with the tokens the server reported and costs tokens × the price row. The brain
 * plays the tasks' reference policies, so scores equal the scripted reference's.
 */
import { describe, expect, it } from "vitest";
import { parseRunConfig, type RunConfigInput } from "../../../src/run/config.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { medianPollScript, topCommentsScript } from "../../agent/support/policy-responder.js";
import { options, run } from "../../run/helpers.js";
import { checkExactBilling } from "./billing.js";
import { policyBrain, type Trigger } from "./brain.js";
import { STYLES, startStyle } from "./support.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-03T00:00:00Z" };
const TASKS = {
  "daily-digest": {
    cfg: { task: "daily-digest", ...WINDOW },
    policy: "top-comments",
    script: () => topCommentsScript(),
  },
  "price-check": {
    cfg: { task: "price-check", ...WINDOW, task_params: { symbols: ["BTC-USD"] } },
    policy: "median-poll",
    script: () => medianPollScript(),
    // a 12k-token context (as test/agent/llm-runs.test.ts runs price-check with 6k): nothing here depends
    // on its size (wire format, completion, score, exact billing per call), and at the default 60k each
    // of the ~3,700 calls of these 15 runs resent ~50k tokens; the context is still cut (oldest wakes
    // dropped) many times a day, so drops and the cache misses they cause are still billed exactly
    context_tokens: 12_000,
  },
} as const;

describe("conformance: both tasks under every trigger against every provider style", () => {
  for (const [taskId, t] of Object.entries(TASKS))
    for (const trigger of ["sleep", "watcher", "cron"] as const) {
      // the scripted reference does not depend on the provider style: one run serves every style
      let reference: ReturnType<typeof run> | undefined;
      const scriptedReference = () => {
        reference ??= run({
          ...t.cfg,
          agent: { model: `scripted:${t.policy}`, trigger: trigger === "cron" ? "cron" : "sleep" },
        } as RunConfigInput);
        return reference;
      };
      for (const style of STYLES)
        it(`${taskId} under ${trigger} against ${style}: completes, scores as the scripted reference, bills exactly`, async () => {
          const ref = await scriptedReference();
          {
            const s = await startStyle(style, policyBrain(t.script(), trigger as Trigger), {
              truncateAt: [1],
              ...(style === "openrouter" ? { errorIn200At: [3] } : {}),
            });
            try {
              const cfg = parseRunConfig({
                ...t.cfg,
                agent: {
                  model: s.model,
                  trigger,
                  ...("context_tokens" in t ? { context_tokens: t.context_tokens } : {}),
                },
                ...(s.model_prices ? { model_prices: s.model_prices } : {}),
              });
              const res = await runFromConfig(cfg, {
                ...options(),
                env: s.env,
                retry: { baseDelayMs: 1, maxDelayMs: 2 },
              });
              const label = `${style} ${taskId} ${trigger}`;
              expect(res.results.flags, label).toMatchObject({ provider_failed: false, failed_degenerate: false });
              expect(res.results.performance, label).toEqual(ref.results.performance);
              expect(res.results.outcomes, label).toEqual(ref.results.outcomes);
              // the truncated second reply ran nothing and was retried with a hint
              expect(res.results.resources.protocol_retries, label).toBeGreaterThanOrEqual(1);
              const booked = checkExactBilling(res.runDir, s, s.model);
              expect(res.results.resources.llm_usd, label).toBeCloseTo(booked, 10);
              expect(booked, label).toBeGreaterThan(0);
              if (style === "openrouter") {
                expect(res.results.resources.llm_failed_attempts, label).toBe(1);
                expect(res.results.resources.provider_cost_diff, label).toBeCloseTo(0, 9);
                expect(res.results.flags.provider_cost_mismatch, label).toBe(false);
              }
            } finally {
              await s.close();
            }
          }
        }, 1_800_000);
    }
});
