import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { ResultsSchema } from "../../src/run/results.js";
import { DIGEST_5D, PRICE_3D, run } from "../run/helpers.js";
import { runWithServer, TEST_MODEL } from "./support/llm-run.js";
import { medianPollScript, policyResponder, topCommentsScript } from "./support/policy-responder.js";

/**
 * BTC only keeps the price-check runs short (one report per hour); the scripted reference gets the
 * same params. Short windows: what these runs check (same score as the scripted policy, the ledger
 * and cassette shapes) shows on day 2 as on day 5; the provider conformance suite runs the same
 * policies against independent server imitations.
 */
const PRICE = {
  task: "price-check",
  ...PRICE_3D,
  sim_end: "2026-03-03T00:00:00Z",
  task_params: { symbols: ["BTC-USD"] },
} as const;
const DIGEST = { task: "daily-digest", ...DIGEST_5D, sim_end: "2026-03-04T00:00:00Z" } as const;

function checkLedger(runDir: string) {
  const ev = readLedger(join(runDir, "ledger.jsonl"));
  for (let i = 1; i < ev.length; i++) expect(ev[i]!.t).toBeGreaterThanOrEqual(ev[i - 1]!.t);
  const llm = ev.filter((e) => e.type === "llm_call");
  expect(llm.length).toBeGreaterThan(0);
  expect(llm.every((e) => e.status === "ok" && e.cost_usd > 0 && e.model === TEST_MODEL)).toBe(true);
  for (const t of ["wake", "wait", "tool_call", "commitment", "outcome", "daily_brief"])
    expect(ev.some((e) => e.type === t)).toBe(true);
  // a call index is unique and increasing per actor
  expect(llm.map((e) => (e.type === "llm_call" ? e.call_index : -1))).toEqual(llm.map((_, i) => i));
  return ev;
}

describe("LLM-driven runs through the runner (OpenAI test server playing the reference policy)", () => {
  const opts = { watcherProgram: { path: "wait.js", source: "await envkit.wait(envkit.deadline());\n" } };
  for (const trigger of ["sleep", "watcher", "cron"] as const) {
    it(`daily-digest under ${trigger}: same score as the scripted top-comments policy`, async () => {
      const ref = await run({
        ...DIGEST,
        agent: { model: "scripted:top-comments", trigger: trigger === "cron" ? "cron" : "sleep" },
      });
      const res = await runWithServer(
        { ...DIGEST, agent: { trigger } },
        policyResponder(topCommentsScript(), trigger, opts),
      );
      expect(ResultsSchema.safeParse(res.results).success).toBe(true);
      expect(res.results.performance).toEqual(ref.results.performance);
      expect(res.results.outcomes).toEqual(ref.results.outcomes);
      expect(res.results.agent).toBe(TEST_MODEL);
      expect(res.results.resources.llm_usd).toBeGreaterThan(0);
      expect(res.results.resources.tokens.cached_input).toBeGreaterThan(0);
      const ev = checkLedger(res.runDir);
      const reasons = new Set(ev.flatMap((e) => (e.type === "wake" ? [e.reason] : [])));
      expect(reasons.has(trigger === "cron" ? "cron" : "sleep")).toBe(true);
      if (trigger === "watcher") expect(ev.some((e) => e.type === "wait" && e.tool === "run_program")).toBe(true);
      // the LLM exchanges are logged in the cassette format
      const log = readFileSync(join(res.runDir, "llm.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(log).toHaveLength(res.results.resources.llm_calls);
      expect(Object.keys(log[0]).sort()).toEqual(["actor", "call_index", "model", "request_hash", "response"]);
      const cfg = JSON.parse(readFileSync(join(res.runDir, "config.json"), "utf8"));
      expect(cfg.resolved.model.settings).toEqual({ maxOutputTokens: 4096 });
      expect(cfg.resolved.model.price).toMatchObject({ input: 0.4, cached_input: 0.1, output: 1.6 });
    }, 900_000);

    it(`price-check under ${trigger}: same score as the scripted median-poll policy`, async () => {
      const ref = await run({
        ...PRICE,
        agent: { model: "scripted:median-poll", trigger: trigger === "cron" ? "cron" : "sleep" },
      });
      const res = await runWithServer(
        { ...PRICE, agent: { trigger, context_tokens: 6_000 } },
        policyResponder(medianPollScript(), trigger, opts),
      );
      expect(res.results.performance).toEqual(ref.results.performance);
      expect(res.results.outcomes).toEqual(ref.results.outcomes);
      expect(res.results.resources.fees_usd).toBeCloseTo(ref.results.resources.fees_usd, 10);
      checkLedger(res.runDir);
    }, 900_000);
  }
});

describe("watcher programs under the LLM agent", () => {
  it("a program polls a data tool through its billed wrapper and hands over; a crashing program fails open", async () => {
    const poll = [
      "let n = 0;",
      "for (;;) {",
      "  n++;",
      "  if (n === 3) envkit.handover({ polls: n });",
      "  await envkit.wait(envkit.now() + 10 * 60 * 1000);",
      "}",
    ].join("\n");
    const fetch = [
      'const r = await envkit.tools.http_fetch({ venue: "kraken", path: "/0/public/Time" });',
      "envkit.handover({ status: r.ok });",
    ].join("\n");
    let turn = 0;
    const steps: [string, unknown][] = [
      ["write_file", { path: "poll.js", content: poll }],
      ["run_program", { path: "poll.js", validate: true }],
      ["run_program", { path: "poll.js", until: "2026-03-01T06:00:00Z" }],
      ["write_file", { path: "fetch.js", content: fetch }],
      ["run_program", { path: "fetch.js" }],
      ["write_file", { path: "crash.js", content: "await envkit.wait(envkit.now() + 1000);\nnull.boom;\n" }],
      ["run_program", { path: "crash.js" }],
      ["finish", { summary: "done" }],
    ];
    const res = await runWithServer(
      { ...PRICE, sim_end: "2026-03-02T00:00:00Z", agent: { trigger: "watcher" } },
      () => {
        const [name, args] = steps[Math.min(turn++, steps.length - 1)]!;
        return { kind: "tool_calls", calls: [{ name, arguments: JSON.stringify(args) }] };
      },
    );
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const wakes = ev.flatMap((e) => (e.type === "wake" ? [[e.reason, new Date(e.t).toISOString()]] : []));
    expect(wakes[0]).toEqual(["start", "2026-03-01T00:00:00.000Z"]);
    expect(wakes[1]).toEqual(["handover", "2026-03-01T00:20:00.000Z"]);
    const fetches = ev.filter((e) => e.type === "tool_call" && e.tool === "http_fetch");
    expect(fetches).toHaveLength(1);
    expect(fetches[0]).toMatchObject({ cost_usd: 0.0001, actor: "agent" });
    expect(wakes[2]?.[0]).toBe("handover");
    expect(wakes[3]).toEqual(["program_end", "2026-03-01T00:20:01.000Z"]);
    expect(ev.find((e) => e.type === "note" && e.kind === "program_error")).toMatchObject({
      message: expect.stringContaining("crash.js"),
    });
    const markers = res.requests.map((r) => r.body.messages.at(-1)).filter((m: { role: string }) => m.role === "user");
    expect(markers.some((m: { content: string }) => m.content.includes('handed over: {"polls":3}'))).toBe(true);
    expect(markers.some((m: { content: string }) => /crash\.js failed: .*null/.test(m.content))).toBe(true);
    // the validate call is free, takes no time and reports validity
    const validate = res.requests[2]!.body.messages.at(-1);
    expect(validate.content).toBe('{"valid":true}');
    expect(res.results.flags.finished_early).toBe(true);
  }, 900_000);

  it("applies the config's watcher step budget", async () => {
    const busy = "let x = 0;\nfor (let i = 0; i < 200000; i++) x += i;\nenvkit.handover({ x });\n";
    const steps: [string, unknown][] = [
      ["write_file", { path: "busy.js", content: busy }],
      ["run_program", { path: "busy.js" }],
      ["finish", { summary: "done" }],
    ];
    let turn = 0;
    const run = (watcher: { step_budget: number }) =>
      runWithServer({ ...PRICE, sim_end: "2026-03-02T00:00:00Z", agent: { trigger: "watcher", watcher } }, () => {
        const [name, args] = steps[Math.min(turn++, steps.length - 1)]!;
        return { kind: "tool_calls", calls: [{ name, arguments: JSON.stringify(args) }] };
      });
    const tight = await run({ step_budget: 1 });
    const note = readLedger(join(tight.runDir, "ledger.jsonl")).find(
      (e) => e.type === "note" && e.kind === "program_error",
    );
    expect(note).toMatchObject({ message: expect.stringContaining("step budget") });
    turn = 0;
    const roomy = await run({ step_budget: 200 });
    const ev = readLedger(join(roomy.runDir, "ledger.jsonl"));
    expect(ev.some((e) => e.type === "note" && e.kind === "program_error")).toBe(false);
    expect(ev.some((e) => e.type === "wake" && e.reason === "handover")).toBe(true);
  }, 900_000);
});
