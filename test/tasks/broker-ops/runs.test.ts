/**
 * broker-ops through the runner (API mode): the anchors of tasks.md §8 on synth-14d and synth-5d (the
 * 25-minute poller 1.0, a client that never signs in 0, silent 0, oracle 1.0), the poller under the
 * cron trigger, and an LLM agent replaying the poller through the OpenAI test server, blind and
 * with oracle feedback.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { ResultsSchema } from "../../../src/run/results.js";
import { synthWorldDir } from "../../../src/synth/synth-world.js";
import { newDeskState, pollerWake } from "../../../src/tasks/broker-ops/desk-steps.js";
import { DEFAULT_PASSWORD } from "../../../src/tasks/broker-ops/params.js";
import { DEFAULT_CREDENTIALS, nextMultiple, POLL_MS } from "../../../src/tasks/broker-ops/policies.js";
import { getTask } from "../../../src/tasks/registry.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { type PolicyScript, policyResponder } from "../../agent/support/policy-responder.js";
import { freshRunsDir, options, run } from "../../run/helpers.js";
import { BROKER_CACHE, bookIds, brokerWorldDir } from "./world.js";

const API = { site_mode: "api" } as const;
const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-06T00:00:00Z" };
const opts = () => ({ ...options(freshRunsDir()), cacheDir: BROKER_CACHE });
const primary = (r: { results: { performance: Record<string, unknown> } }) =>
  (r.results.performance.primary as { value: number | null }).value;

/** the poller as an LLM script (its own desk memory); with `askFirst` each wake starts with get_feedback */
function pollerScript(askFirst: boolean): PolicyScript {
  const state = newDeskState();
  return {
    *act(now) {
      if (askFirst) yield { tool: "get_feedback", args: {} };
      yield* pollerWake(state, DEFAULT_CREDENTIALS, now);
    },
    nextWake: (now) => nextMultiple(now, POLL_MS),
    cron: ["*/25 * * * *"],
  };
}

describe("broker-ops anchors through the runner (API mode)", () => {
  it("the default episode synth-14d: the 25-minute poller 1.0 (66 of 66 duties), a client that never signs in 0", async () => {
    const poller = await run({ task: "broker-ops", task_params: API, agent: { model: "scripted:poller-25m" } }, opts());
    // generator v7 (candle volatility regimes, src/tasks/risk-portfolio/README.md "Calibration"): v6 69 duties
    // (48 stop, 21 funding; mc(22) settling after the window) → v7 66 (49 stop, 17 funding; be(281) and mc(18) after it)
    expect(poller.results.performance).toMatchObject({
      primary: { name: "routine_score", value: 1 },
      duties: 66,
      stop_duties: 49,
      funding_duties: 17,
    });
    const ep = getTask("broker-ops").episodes.find((e) => e.name === "synth-14d")!;
    const { be, mc } = bookIds(
      synthWorldDir(join(BROKER_CACHE, "synth"), { seed: 1, start: ep.sim_start, end: ep.sim_end }),
    );
    expect(poller.results.not_scorable).toEqual([
      { key: `stop:${be(281)}`, reason: "settles after window" },
      { key: `funding:${mc(18)}`, reason: "settles after window" },
    ]);
    const never = await run(
      { task: "broker-ops", task_params: API, agent: { model: "scripted:never-signs-in" } },
      opts(),
    );
    expect(primary(never)).toBe(0);
    expect(never.results.performance).toMatchObject({ duties: 66, duties_missed: 66 });
    expect(never.results.outcomes.every((o) => o.status === "missed")).toBe(true);
  });

  it("synth-5d: poller-25m 1.0 on all 26 duties, signing in again after each session ended; silent 0; oracle 1.0 at zero latency", async () => {
    brokerWorldDir();
    const poller = await run(
      { task: "broker-ops", episode: "synth-5d", task_params: API, agent: { model: "scripted:poller-25m" } },
      opts(),
    );
    expect(ResultsSchema.safeParse(poller.results).success).toBe(true);
    expect(poller.results.performance).toMatchObject({
      primary: { name: "routine_score", value: 1, direction: "higher" },
      // generator v7: 24 → 26 duties (20 → 22 stop; v6's last fill settled after the window, v7's every duty inside)
      duties: 26,
      duties_met: 26,
      stop_duties: 22,
      funding_duties: 4,
      stop_score: 1,
      funding_score: 1,
    });
    expect(poller.results.not_scorable).toEqual([]);
    expect(poller.results.outcomes.map((o) => o.status)).toEqual(Array(26).fill("met"));
    const ledger = readFileSync(join(poller.runDir, "ledger.jsonl"), "utf8");
    expect(ledger).not.toContain(DEFAULT_PASSWORD);
    expect(ledger).toContain('"password":"[redacted:broker_password]"');
    expect(ledger).toContain('"code":"[redacted:broker_code]"');
    const ev = readLedger(join(poller.runDir, "ledger.jsonl"));
    const wakes = ev.filter((e) => e.type === "wake");
    // the start wake, then every multiple of 25 min (epoch-aligned) inside the window
    const start = Date.parse(WINDOW.sim_start);
    const end = Date.parse(WINDOW.sim_end);
    expect(wakes).toHaveLength(1 + Math.floor((end - 1) / POLL_MS) - Math.floor(start / POLL_MS));
    // the poller signs in again whenever its session ran out (idle 30 min, midnight)
    expect(ev.filter((e) => e.type === "tool_call" && e.tool === "broker_sign_in").length).toBeGreaterThan(5);

    const silent = await run(
      { task: "broker-ops", episode: "synth-5d", task_params: API, agent: { model: "scripted:silent" } },
      opts(),
    );
    expect(primary(silent)).toBe(0);
    const oracle = await run(
      { task: "broker-ops", episode: "synth-5d", task_params: API, agent: { model: "scripted:oracle" } },
      opts(),
    );
    expect(oracle.results.performance).toMatchObject({ primary: { value: 1 }, duties: 26, median_latency_min: 0 });
  });

  it("under the cron trigger the poller (*/25) also meets every duty of day 1", async () => {
    const r = await run(
      {
        task: "broker-ops",
        sim_start: "2026-03-01T00:00:00Z",
        sim_end: "2026-03-02T00:00:00Z",
        world: { dir: brokerWorldDir() },
        task_params: API,
        agent: { model: "scripted:poller-25m", trigger: "cron" },
      },
      opts(),
    );
    expect(r.results.performance).toMatchObject({ primary: { value: 1 }, duties: 3 });
  });
});

describe("an LLM agent replaying the poller through the OpenAI test server (03-01 00:00–14:00, API mode)", () => {
  const DAY1 = {
    task: "broker-ops",
    sim_start: "2026-03-01T00:00:00Z",
    sim_end: "2026-03-01T14:00:00Z",
    task_params: API,
  } as const;

  it("scores like the scripted poller, blind and with oracle feedback; feedback only settled outcomes", async () => {
    const world = { dir: brokerWorldDir() };
    const ref = await run({ ...DAY1, world, agent: { model: "scripted:poller-25m" } }, opts());
    expect(ref.results.performance).toMatchObject({ primary: { value: 1 }, duties: 2 });

    // blind: the first 12 hours (the 01:20 fill's duty settles at 03:20; the 11:15 fill's after the window)
    const blind = await runWithServer(
      { ...DAY1, sim_end: "2026-03-01T12:00:00Z", world, agent: { trigger: "sleep", context_tokens: 6_000 } },
      policyResponder(pollerScript(false), "sleep"),
      { cacheDir: BROKER_CACHE },
    );
    expect(blind.results.performance).toMatchObject({ primary: { value: 1 }, duties: 1 });
    expect(blind.results.outcomes).toEqual(ref.results.outcomes.slice(0, 1));
    const toolNames = (b: { tools: { function: { name: string } }[] }) => b.tools.map((t) => t.function.name);
    expect(toolNames(blind.requests[0]!.body)).toEqual(
      expect.arrayContaining(["http_get", "broker_sign_in", "broker_enter_code", "place_stop", "send_funding"]),
    );
    expect(toolNames(blind.requests[0]!.body)).not.toContain("get_feedback");
    expect(JSON.stringify(blind.requests.map((r) => r.body)).toLowerCase()).not.toContain("feedback");
    expect(JSON.stringify(blind.requests[0]!.body.messages[0])).toContain(DEFAULT_PASSWORD);
    // the instruction carries the credentials; neither the ledger nor llm.jsonl does (the model typed them)
    for (const log of ["ledger.jsonl", "llm.jsonl"]) {
      const text = readFileSync(join(blind.runDir, log), "utf8");
      expect(text).not.toContain(DEFAULT_PASSWORD);
      expect(text).toContain("[redacted:broker_password]");
    }

    const oracle = await runWithServer(
      { ...DAY1, world, feedback: "oracle", agent: { trigger: "sleep", context_tokens: 6_000 } },
      policyResponder(pollerScript(true), "sleep"),
      { cacheDir: BROKER_CACHE },
    );
    expect(toolNames(oracle.requests[0]!.body)).toContain("get_feedback");
    expect(oracle.results.performance).toEqual(ref.results.performance);
    expect(oracle.results.outcomes).toEqual(ref.results.outcomes);
    let seen = 0;
    for (const req of oracle.requests) {
      for (const m of req.body.messages as { role: string; content?: string }[]) {
        if (m.role !== "tool" || !m.content?.startsWith('{"now"')) continue;
        const v = JSON.parse(m.content) as {
          now: string;
          items: { settled_at: string; key: string; status: string }[];
        };
        for (const it of v.items) {
          expect(Date.parse(it.settled_at)).toBeLessThanOrEqual(Date.parse(v.now));
          expect(it.status).toBe("met");
        }
        seen = Math.max(seen, v.items.length);
      }
    }
    // the fills of 01:20 and 11:15 settle at 03:20 and 13:15
    expect(seen).toBe(2);
  });
});
