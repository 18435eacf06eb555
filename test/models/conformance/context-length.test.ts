/**
 * Conformance: llama.cpp refuses prompts over its context size (400 exceed_context_size_error). The
 * agent drops its oldest wakes and retries (ledgered `context_overflow` notes), and the run scores as
 * the scripted reference.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { parseRunConfig } from "../../../src/run/config.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { topCommentsScript } from "../../agent/support/policy-responder.js";
import { options, run } from "../../run/helpers.js";
import { policyBrain } from "./brain.js";
import { startStyle } from "./support.js";

describe("conformance: context-length errors", () => {
  it("llama.cpp's context-size 400 is recovered by dropping the oldest wakes", async () => {
    const DIGEST = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-05T00:00:00Z" };
    const ref = await run({ ...DIGEST, agent: { model: "scripted:top-comments" } });
    const s = await startStyle("llamacpp", policyBrain(topCommentsScript(), "sleep"), { contextTokens: NCTX });
    try {
      const cfg = parseRunConfig({ ...DIGEST, agent: { model: s.model }, model_prices: s.model_prices });
      const res = await runFromConfig(cfg, { ...options(), env: s.env, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      const notes = readLedger(join(res.runDir, "ledger.jsonl")).flatMap((e) => (e.type === "note" ? [e.kind] : []));
      expect(notes.filter((k) => k === "context_overflow").length).toBeGreaterThan(0);
      expect(notes).not.toContain("model_failed");
      expect(res.results.performance).toEqual(ref.results.performance);
    } finally {
      await s.close();
    }
  }, 600_000);
});

const NCTX = 12_000;
