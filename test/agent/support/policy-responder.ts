import { isoInstant, MINUTE_MS, startOfUtcDay } from "../../../src/common/time.js";
import { nextDailyAt } from "../../../src/tasks/daily-digest/reference-policies.js";
import { dropOutliers, nextPollAfter } from "../../../src/tasks/price-check/policies.js";
import { median } from "../../../src/tasks/price-check/truth.js";
import {
  ExchangeDocs,
  HttpResult,
  lastCandle,
  recentCandlesRequest,
} from "../../../src/tasks/price-check/venue-client.js";
import type { RequestBody, ScriptedReply } from "../../support/openai-test-server.js";

/**
 * An "LLM" for end-to-end tests: a responder for the OpenAI test server that reads the wake marker's
 * time from the conversation and plays a task's reference policy as tool calls, one call per reply,
 * feeding each tool result back into the policy (written as a synchronous generator, because the
 * server's responder is synchronous). It finishes each wake with the trigger's wait tool. Replays of
 * the same request (after an injected fault) get the same reply; foreign tool results (an injected
 * malformed call) and nudges re-issue the pending call.
 */

export type ToolOutcome = { ok: true; value: unknown } | { ok: false; error: string };
export interface Step {
  tool: string;
  args: unknown;
}

export interface PolicyScript {
  act(now: number): Generator<Step, void, ToolOutcome>;
  nextWake(now: number): number | null;
  cron: string[];
}

export type ResponderTrigger = "sleep" | "cron" | "watcher" | "policy";

const MARKER = /^\(woke at (\S+) for /;

/** the line `agent.scaffolding.context_feedback` appends to every tool result (src/agent/scaffolding.ts) */
const CONTEXT_LINE = /\n\(context: \d+ tokens used of \d+, \d+ left\)$/;

export function parseToolContent(raw: string): ToolOutcome {
  // a model reads past the context-feedback line; the result itself is what comes before it
  const content = raw.replace(CONTEXT_LINE, "");
  if (content.startsWith("ERROR: ")) return { ok: false, error: content.slice(7) };
  return { ok: true, value: JSON.parse(content) };
}

export interface PolicyResponderOptions {
  /** watcher runs: the program the responder writes at the first wake and runs at each wake's end */
  watcherProgram?: { path: string; source: string };
}

export function policyResponder(
  script: PolicyScript,
  trigger: ResponderTrigger,
  o: PolicyResponderOptions = {},
): (body: RequestBody, index: number) => ScriptedReply {
  let marker: string | null = null;
  let now = 0;
  let first = true;
  let setup: Step[] = [];
  let gen: Generator<Step, void, ToolOutcome> | null = null;
  let genStarted = false;
  let pending: Step = { tool: "none", args: {} };
  let lastIssue = -1;
  let consumed: string | null = null;

  const waitStep = (): Step => {
    const next = script.nextWake(now);
    switch (trigger) {
      case "sleep":
        return next === null
          ? { tool: "finish", args: { summary: "nothing left" } }
          : { tool: "sleep", args: { until: isoInstant(next) } };
      case "cron":
      case "policy":
        return { tool: "done", args: { summary: "ok" } };
      case "watcher": {
        const p = o.watcherProgram;
        if (!p) throw new Error("watcher responder needs a program");
        return {
          tool: "run_program",
          args: next === null ? { path: p.path } : { path: p.path, until: isoInstant(next) },
        };
      }
    }
  };

  const advance = (result: ToolOutcome | undefined): Step => {
    if (setup.length > 0) return setup.shift() as Step;
    if (gen === null) return waitStep();
    const r = genStarted ? gen.next(result as ToolOutcome) : gen.next();
    genStarted = true;
    if (r.done) {
      gen = null;
      return waitStep();
    }
    return r.value;
  };

  return (body, index) => {
    const msgs = body.messages as { role: string; content?: string; tool_call_id?: string }[];
    let m: RegExpExecArray | null = null;
    let markerText: string | null = null;
    for (let i = msgs.length - 1; i >= 0; i--) {
      const msg = msgs[i]!;
      if (msg.role !== "user" || typeof msg.content !== "string") continue;
      m = MARKER.exec(msg.content);
      if (m) {
        markerText = msg.content;
        break;
      }
    }
    if (markerText === null || m === null) throw new Error("policy responder: no wake marker in the conversation");
    const last = msgs.at(-1)!;
    if (markerText !== marker) {
      marker = markerText;
      now = Date.parse(m[1]!);
      setup = [];
      if (first) {
        if (trigger === "cron")
          for (const [i, expr] of script.cron.entries())
            setup.push({ tool: "create_schedule", args: { id: `policy-${i + 1}`, cron_expr: expr } });
        if (trigger === "watcher" && o.watcherProgram)
          setup.push({ tool: "write_file", args: { path: o.watcherProgram.path, content: o.watcherProgram.source } });
        first = false;
      }
      gen = script.act(now);
      genStarted = false;
      pending = advance(undefined);
    } else if (
      last.role === "tool" &&
      last.tool_call_id !== consumed &&
      last.tool_call_id?.startsWith(`call_${lastIssue}_`)
    ) {
      consumed = last.tool_call_id;
      pending = advance(parseToolContent(last.content ?? ""));
    }
    lastIssue = index;
    return { kind: "tool_calls", calls: [{ name: pending.tool, arguments: JSON.stringify(pending.args) }] };
  };
}

// ---- the reference policies as generator scripts ---------------------------------------------------

/** daily-digest `top-comments` (12:30 UTC), step for step like the task's reference policy. */
export function topCommentsScript(minuteOfDay = 12 * 60 + 30): PolicyScript {
  return {
    *act(now) {
      const target = startOfUtcDay(now) + minuteOfDay * MINUTE_MS;
      if (now < target || now >= target + 30 * MINUTE_MS) return;
      const s = yield { tool: "digest_status", args: {} };
      if (!s.ok) throw new Error(`digest_status failed: ${s.error}`);
      const st = s.value as {
        today: { delivered: boolean; candidates: { since: string; until: string } };
        digest_size: number;
      };
      if (st.today.delivered) return;
      const page = yield {
        tool: "list_posts",
        args: { since: st.today.candidates.since, until: st.today.candidates.until, sort: "comments", order: "desc" },
      };
      if (!page.ok) return;
      const ids = (page.value as { posts: { id: string }[] }).posts.slice(0, st.digest_size).map((p) => p.id);
      if (ids.length === 0) return;
      yield { tool: "digest", args: { root_ids: ids } };
    },
    nextWake: (now) => nextDailyAt(now, minuteOfDay),
    cron: [`${minuteOfDay % 60} ${Math.floor(minuteOfDay / 60)} * * *`],
  };
}

/** price-check `median-poll`, step for step like the task's reference policy (backoff kept per run). */
export function medianPollScript(): PolicyScript {
  const backoff = new Map<string, number>();
  return {
    *act(now) {
      const got = yield { tool: "get_exchange_docs", args: {} };
      if (!got.ok) throw new Error(`get_exchange_docs failed: ${got.error}`);
      const docs = ExchangeDocs.parse(got.value);
      const I = docs.truth.interval_ms;
      for (const symbol of docs.symbols) {
        const closes: number[] = [];
        for (const venue of docs.truth.venues[symbol] ?? []) {
          const doc = docs.venues[venue];
          const pair = doc?.symbols[symbol];
          if (!doc || !pair) continue;
          if (now < (backoff.get(venue) ?? Number.NEGATIVE_INFINITY)) continue;
          const req = recentCandlesRequest(doc.api, pair, I, now);
          const r = yield { tool: "http_fetch", args: { venue, path: req.path, params: req.params, timeout_s: 5 } };
          if (!r.ok) continue;
          const res = HttpResult.parse(r.value);
          const retryAfter = Number(res.headers["retry-after"]);
          if (Number.isFinite(retryAfter) && retryAfter > 0) backoff.set(venue, now + retryAfter * 1000);
          if (res.status !== 200) continue;
          const lc = lastCandle(doc.api, res.body, doc.result_keys?.[symbol] ?? pair);
          if (!lc || !Number.isFinite(lc.close) || lc.close <= 0) continue;
          if (now - (lc.open_time + I) >= I) continue;
          closes.push(lc.close);
        }
        const usable = dropOutliers(closes);
        if (usable.length >= 2) yield { tool: "report", args: { symbol, price: median(usable) } };
        else yield { tool: "abstain", args: { symbol, reason: `only ${usable.length} usable venue(s)` } };
      }
    },
    nextWake: nextPollAfter,
    cron: ["50 * * * *"],
  };
}
