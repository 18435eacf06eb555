import { DAY_MS, nextUtcMidnight } from "../../../src/common/time.js";
import type { PolicyScript, Step, ToolOutcome } from "../../agent/support/policy-responder.js";

type Listed = { id: string; title: string; your_forecast: Record<string, number> | null };

/**
 * A fixed open-forecast policy for LLM test servers (the ablation and grid tests): at each daily wake, every open question without a standing forecast gets
 * {Yes: p, No: 1 − p} with p = base (default 0.25) + 0.1 × (news hits for its title's first three words
 * published since yesterday 00:00, from `search_news`; or the hits of `question_news` where search_news does not
 * exist: one-shot). Standing forecasts (an injected anchor included) are kept.
 */
export function newsCountPolicy(base = 0.25): PolicyScript {
  return {
    cron: [],
    nextWake: nextUtcMidnight,
    *act(now: number): Generator<Step, void, ToolOutcome> {
      const yesterday = new Date(now - DAY_MS).toISOString().slice(0, 10);
      const listed = yield { tool: "list_questions", args: {} };
      if (!listed.ok) return;
      for (const q of (listed.value as { questions: Listed[] }).questions) {
        if (q.your_forecast !== null) continue;
        const query = q.title
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter((w) => w.length > 3)
          .slice(0, 3)
          .join(" OR ");
        let r = yield { tool: "search_news", args: { query: query || "news", from_date: yesterday } };
        if (!r.ok && r.error.startsWith("unknown tool"))
          r = yield { tool: "question_news", args: { question_id: q.id } };
        const hits = r.ok ? (r.value as { results: unknown[] }).results.length : 0;
        const p = Math.round((base + 0.1 * hits) * 100) / 100;
        yield {
          tool: "submit_forecasts",
          args: { question_id: q.id, outcomes: { Yes: p, No: Number((1 - p).toFixed(2)) } },
        };
      }
    },
  };
}
