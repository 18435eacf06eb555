/**
 * P4 (spec/quality.md): token efficiency of the ReAct harness. A 28-day daily-digest run under the
 * cron trigger with the OpenAI test server playing the top-comments policy (test/agent/support):
 * the base schedule's 12:05 firing is a no-op wake (one model call that only calls `done`), the
 * 12:30 firing delivers the digest. Figures:
 * - tokens added per no-op wake: the growth of the next wake's first prompt over the no-op wake's
 *   prompt (its marker, the `done` call and its result), median over no-op wakes not followed by a
 *   context drop; target ≤ 300;
 * - cacheable share: Σ (tokens of the longest common prefix of each prompt with the previous
 *   prompt) / Σ prompt tokens, over every call after the first, on the server's own serialization
 *   (tools, then messages, one JSON line each; cl100k); target ≥ 90 %. The server's reported cached
 *   share (OpenAI's 1,024-token minimum and 128-token granularity) is printed beside it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { readLedger } from "../src/ledger/ledger-reader.js";
import { parseRunConfig } from "../src/run/config.js";
import { runFromConfig } from "../src/run/runner.js";
import { policyResponder, topCommentsScript } from "../test/agent/support/policy-responder.js";
import { serializePrompt, startOpenAITestServer } from "../test/support/openai-test-server.js";
import { isMain, median, writeResult } from "./stats.js";

export async function run(opts: { days?: number; contextTokens?: number } = {}) {
  const days = opts.days ?? 28;
  const dir = mkdtempSync(join(tmpdir(), "relive-p4-"));
  const server = await startOpenAITestServer();
  server.respond(policyResponder(topCommentsScript(), "cron"));
  const end = new Date(Date.parse("2026-03-01T00:00:00Z") + days * 86_400_000).toISOString();
  let runDir: string;
  try {
    const cfg = parseRunConfig({
      task: "daily-digest",
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: end,
      agent: {
        model: "openai:gpt-4.1-mini",
        trigger: "cron",
        ...(opts.contextTokens ? { context_tokens: opts.contextTokens } : {}),
      },
    });
    const res = await runFromConfig(cfg, {
      runsDir: join(dir, "runs"),
      cacheDir: join(dir, "cache"),
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "bench" },
      retry: { baseDelayMs: 1 },
    });
    runDir = res.runDir;
  } finally {
    await server.close();
  }

  const enc = new Tiktoken(cl100k);
  const prompts = server.requests.map((r) => enc.encode(serializePrompt(r.body)));
  let common = 0;
  let total = 0;
  for (let i = 1; i < prompts.length; i++) {
    const a = prompts[i - 1]!;
    const b = prompts[i]!;
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    common += k;
    total += b.length;
  }

  // per wake: its llm calls and tool calls (from the ledger)
  const ev = readLedger(join(runDir, "ledger.jsonl"));
  type W = { inputs: number[]; tools: string[] };
  const wakes: W[] = [];
  for (const e of ev) {
    if (e.type === "wake") wakes.push({ inputs: [], tools: [] });
    else if (e.type === "llm_call" && e.status === "ok") wakes.at(-1)?.inputs.push(e.input_tokens);
    else if (e.type === "tool_call") wakes.at(-1)?.tools.push(e.tool);
  }
  const added: number[] = [];
  let noop = 0;
  for (let i = 0; i + 1 < wakes.length; i++) {
    const w = wakes[i]!;
    if (w.inputs.length !== 1 || w.tools.join() !== "done") continue;
    noop++;
    const next = wakes[i + 1]!.inputs[0];
    if (next !== undefined && next > w.inputs[0]!) added.push(next - w.inputs[0]!);
  }
  const llm = ev.flatMap((e) => (e.type === "llm_call" && e.status === "ok" ? [e] : []));
  const reportedCached =
    llm.reduce((s, e) => s + e.cached_input_tokens, 0) / llm.reduce((s, e) => s + e.input_tokens, 0);
  rmSync(dir, { recursive: true, force: true });

  const perNoop = median(added);
  const share = common / total;
  const out = {
    id: "P4",
    what: `daily-digest, ${days} simulated days, cron trigger, OpenAI test server playing top-comments`,
    model_calls: prompts.length,
    noop_wakes: noop,
    noop_wakes_measured: added.length,
    tokens_added_per_noop_wake: { median: perNoop, max: Math.max(...added), target: 300, met: perNoop <= 300 },
    prefix_unchanged_share: { value: +share.toFixed(4), target: 0.9, met: share >= 0.9 },
    server_reported_cached_share: +reportedCached.toFixed(4),
  };
  console.log(
    `P4 tokens added per no-op wake: median ${perNoop} (max ${Math.max(...added)}, ${added.length} of ${noop} no-op wakes) → target ≤ 300 ${perNoop <= 300 ? "met" : "NOT met"}`,
  );
  console.log(
    `P4 input tokens in a prefix unchanged since the previous call: ${(share * 100).toFixed(1)}% over ${prompts.length} calls (server-reported cached ${(reportedCached * 100).toFixed(1)}%) → target ≥ 90% ${share >= 0.9 ? "met" : "NOT met"}`,
  );
  writeResult("p4-tokens", out);
  return out;
}

if (isMain(import.meta.url)) await run();
