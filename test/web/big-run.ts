import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes a run directory with a large synthetic ledger directly (no simulation), for the dashboard
 * tests and the P7 benchmark. Every line is a valid ledger event (src/ledger/events.ts) in
 * simulated order: a run_start, then wake cycles (wake, llm_call, tool_call, llm_call, tool_call,
 * wait) spread evenly over the window, an hourly commitment settled by an outcome one hour later,
 * a daily_brief at every midnight, and a run_end. config.json and results.json follow the shapes a
 * real `relive run` writes (taken from a daily-digest run).
 */
export interface BigRunOptions {
  /** ledger lines to write (default 1,000,000) */
  events?: number;
  days?: number;
  /** default 2026-03-01T00:00:00Z */
  simStart?: number;
  runId?: string;
  seed?: number;
  /** write results.json (a finished run); default true */
  finished?: boolean;
  /** append a torn (newline-less) last line, as a kill mid-write leaves */
  torn?: boolean;
  /**
   * config.json and results.json of a real run (see real-run.ts) to take the shapes from, so the
   * files follow the current schemas; the fields this ledger determines are overwritten.
   */
  template?: { config: Record<string, unknown>; results: Record<string, unknown> };
}

export interface BigRun {
  runDir: string;
  runId: string;
  simStart: number;
  simEnd: number;
  /** complete ledger lines written */
  lines: number;
  counts: Record<string, number>;
  /** simulated time of every line `i * 1000` (for checks) */
  timeAt: (seq: number) => number;
  spentUsd: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const LIST_COST = 0.00002;
const LLM_COST = 0.00003;
const WORLD_HASH = "351276ba3de04f82e959f33f5b3b6dee27e4160fbdec8a992912ad84e76eee28";

export function writeBigRun(parent: string, o: BigRunOptions = {}): BigRun {
  const n = o.events ?? 1_000_000;
  const days = o.days ?? 28;
  const simStart = o.simStart ?? Date.parse("2026-03-01T00:00:00Z");
  const simEnd = simStart + days * DAY;
  const runId = o.runId ?? "b16a0c0ffee0";
  const seed = o.seed ?? 0;
  const agent = "openai:gpt-4.1-mini";
  const runDir = join(parent, "daily-digest", "openai-gpt-4.1-mini", `${runId}-s${seed}`);
  mkdirSync(join(runDir, "workspace"), { recursive: true });
  const iso = (t: number) => new Date(t).toISOString();

  const counts: Record<string, number> = {};
  const times: number[] = [];
  const fd = openSync(join(runDir, "ledger.jsonl"), "w");
  let parts: string[] = [];
  let size = 0;
  let seq = 0;
  const emit = (type: string, t: number, rest: string) => {
    if (seq % 1000 === 0) times.push(t);
    const line = `{"seq":${seq},"type":"${type}","t":${t}${rest}}\n`;
    seq++;
    counts[type] = (counts[type] ?? 0) + 1;
    parts.push(line);
    size += line.length;
    if (size > 1 << 22) {
      writeSync(fd, parts.join(""));
      parts = [];
      size = 0;
    }
  };

  emit(
    "run_start",
    simStart,
    `,"run_id":"${runId}","task":"daily-digest","task_version":"1","episode":"synth-28d","sim_start":${simStart},"sim_end":${simEnd},"seed":${seed},"agent":"${agent}","trigger":"sleep","world_hash":"${WORLD_HASH}","budget_usd":20`,
  );
  let spent = 0;
  let llmSpent = 0;
  let listSpent = 0;
  let day = 1;
  const brief = (t: number) => {
    const left = 20 - spent;
    emit(
      "daily_brief",
      t,
      `,"day":${day},"days":${days},"spent_usd":${spent},"left_usd":${left},"llm_spent_usd":${llmSpent},"llm_left_usd":${20 - llmSpent},"by_type":{"llm":${llmSpent},"tool:list_posts":${listSpent}},"text":"day ${day} of ${days}: spent $${spent.toFixed(4)} of $20.0000 ($${left.toFixed(4)} left)"`,
    );
  };
  brief(simStart);
  // a few spare cycles: the loop stops at `n` lines, and notes fill the last few lines exactly
  const cycles = Math.floor((n - 2 - days - 2 * days * 24) / 6) + 2;
  const step = Math.floor((simEnd - simStart) / cycles);
  let nextMidnight = simStart + DAY;
  let nextCommit = simStart + HOUR / 2;
  const pending: number[] = []; // commitment times awaiting their outcome
  const outcomes: { t: string; key: string; status: string; credit: number; detail: Record<string, unknown> }[] = [];
  let calls = 0;
  let k = 0;
  for (let i = 0; i < cycles && seq < n - 1; i++) {
    const t = simStart + i * step;
    // settle outcomes due by t, then the midnight brief, in simulated order
    for (;;) {
      const due = pending.length > 0 && pending[0]! + HOUR <= t ? pending[0]! + HOUR : Number.POSITIVE_INFINITY;
      const mid = nextMidnight <= t && nextMidnight < simEnd ? nextMidnight : Number.POSITIVE_INFINITY;
      if (due === Number.POSITIVE_INFINITY && mid === Number.POSITIVE_INFINITY) break;
      if (seq >= n - 1) break;
      if (due <= mid) {
        const c = pending.shift()!;
        const key = `hour:${iso(c).slice(0, 13)}`;
        const status = k % 7 === 3 ? "missed" : "delivered";
        const credit = status === "missed" ? 0 : (k % 5) / 4;
        k++;
        emit("outcome", due, `,"key":"${key}","status":"${status}","credit":${credit},"detail":{"hits":${k % 11}}`);
        outcomes.push({ t: iso(due), key, status, credit, detail: { hits: k % 11 } });
      } else {
        day++;
        brief(mid);
        nextMidnight += DAY;
      }
    }
    if (seq + 7 >= n) break;
    emit("wake", t, `,"actor":"agent","reason":"${i % 3 === 0 ? "trigger" : "sleep"}"`);
    emit(
      "llm_call",
      t,
      `,"actor":"agent","model":"${agent}","call_index":${calls++},"attempt":1,"status":"ok","input_tokens":2100,"cached_input_tokens":1900,"output_tokens":60,"cost_usd":${LLM_COST}`,
    );
    spent += LLM_COST;
    llmSpent += LLM_COST;
    emit(
      "tool_call",
      t,
      `,"actor":"agent","tool":"list_posts","args":{"since":"${iso(t - DAY)}","sort":"comments"},"status":"ok","cost_usd":${LIST_COST},"domain":"data","result_hash":"${(i * 2654435761).toString(16).padStart(16, "0").slice(-16)}"`,
    );
    spent += LIST_COST;
    listSpent += LIST_COST;
    emit(
      "llm_call",
      t,
      `,"actor":"agent","model":"${agent}","call_index":${calls++},"attempt":1,"status":"ok","input_tokens":2300,"cached_input_tokens":2100,"output_tokens":40,"cost_usd":${LLM_COST}`,
    );
    spent += LLM_COST;
    llmSpent += LLM_COST;
    if (t >= nextCommit) {
      emit(
        "tool_call",
        t,
        `,"actor":"agent","tool":"digest","args":{"root_ids":["p${i}"]},"status":"ok","cost_usd":0,"domain":"tools","result_hash":"00000000000000aa"`,
      );
      emit("commitment", t, `,"actor":"agent","tool":"digest","args":{"root_ids":["p${i}"]}`);
      pending.push(t);
      nextCommit += HOUR;
    } else {
      emit(
        "tool_call",
        t,
        `,"actor":"agent","tool":"digest_status","args":{},"status":"ok","cost_usd":0,"domain":"tools","result_hash":"00000000000000bb"`,
      );
    }
    emit("wait", t, `,"actor":"agent","until":${t + step},"tool":"sleep"`);
  }
  const lastT = simStart + (cycles - 1) * step;
  while (seq < n - 1) emit("note", lastT, `,"actor":"agent","kind":"filler","message":"line ${seq}"`);
  emit("run_end", simEnd, `,"reason":"sim_end"`);
  if (o.torn) parts.push(`{"seq":${seq},"type":"wake","t":${simEnd},"actor":"ag`);
  writeSync(fd, parts.join(""));
  closeSync(fd);

  const tc = o.template?.config as { config?: Record<string, unknown>; resolved?: Record<string, unknown> } | undefined;
  const config = {
    ...tc,
    config: {
      ...tc?.config,
      task: "daily-digest",
      task_params: {},
      world: { seed: 1 },
      agent: { model: agent, trigger: "sleep", cron_base: "readonly", deadline_guard: false, context_tokens: 60000 },
      feedback: "none",
      domain_budgets: { llm: 20 },
      seed,
    },
    resolved: {
      ...tc?.resolved,
      task_version: "1",
      scorer_version: "daily-digest-scorer/1",
      harness_version: "0.1.0",
      episode: "synth-28d",
      sim_start: iso(simStart),
      sim_end: iso(simEnd),
      task_params: { ...(tc?.resolved?.task_params as object | undefined), reddit_call_usd: LIST_COST },
      budget_usd: 20,
      agent,
      world_hash: WORLD_HASH,
    },
  };
  writeFileSync(join(runDir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  if (o.finished ?? true) writeFileSync(join(runDir, "results.json"), `${JSON.stringify(bigResults())}\n`);

  function bigResults() {
    const anytime = Array.from({ length: days }, (_, d) => ({
      day: d + 1,
      t: iso(simStart + (d + 1) * DAY),
      primary: d === 0 ? null : 0.5 + 0.01 * d,
    }));
    const tr = o.template?.results ?? {};
    const timing = (tr.timing ?? {}) as Record<string, unknown>;
    const diagnostics = (tr.diagnostics ?? {}) as Record<string, unknown>;
    return {
      ...tr,
      schema_version: 1,
      run_id: runId,
      task: "daily-digest",
      task_version: "1",
      scorer_version: "daily-digest-scorer/1",
      harness_version: "0.1.0",
      episode: "synth-28d",
      agent,
      trigger: "sleep",
      seed,
      sim_start: iso(simStart),
      sim_end: iso(simEnd),
      performance: {
        primary: { name: "digest_acc", value: 0.7321, direction: "higher" },
        digest_acc: 0.7321,
        days_scored: days - 1,
      },
      outcomes,
      not_scorable: [{ key: `day:${iso(simEnd - DAY).slice(0, 10)}`, reason: "settles after sim_end" }],
      resources: {
        budget_usd: 20,
        spent_usd: spent,
        llm_usd: llmSpent,
        fees_usd: listSpent,
        overshoot_usd: 0,
        spend_by_type: { llm: llmSpent, "tool:list_posts": listSpent },
        tokens: { input: 2200 * calls, cached_input: 2000 * calls, output: 50 * calls },
        wakes: counts.wake ?? 0,
        tool_calls: counts.tool_call ?? 0,
        rejected_calls: 0,
        protocol_retries: 0,
        llm_calls: counts.llm_call ?? 0,
        llm_failed_attempts: 0,
      },
      flags: { budget_exhausted: false, llm_budget_exhausted: false, failed_degenerate: false, finished_early: false },
      timing: {
        ...timing,
        anytime,
        anytime_interval: "1 simulated day (primary recomputed on the window [sim_start, day end))",
        auc: 0.62,
        best_so_far: 0.77,
        first_commitment_hours: 0.5,
        target: 0.5,
        hours_to_target: 24,
      },
      diagnostics: {
        ...diagnostics,
        days_without_wake: 0,
        weekly_median_wake_interval_h: [step / HOUR, step / HOUR, step / HOUR, step / HOUR],
        wake_interval_drift: 1,
        noop_wake_share: 0.9,
        late_deviation_weeks: [],
        missed: 0,
        wake_reasons: { sleep: counts.wake ?? 0 },
        reaction_h: { n: 0, p50: null, p90: null, mean: null },
      },
    };
  }

  return {
    runDir,
    runId,
    simStart,
    simEnd,
    lines: seq,
    counts,
    timeAt: (s: number) => {
      if (s % 1000 !== 0) throw new Error("timeAt: only multiples of 1000 are kept");
      return times[s / 1000]!;
    },
    spentUsd: spent,
  };
}
