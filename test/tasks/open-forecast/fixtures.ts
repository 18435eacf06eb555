import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kernel } from "../../../src/kernel/kernel.js";
import { LedgerWriter } from "../../../src/ledger/ledger-writer.js";
import { Wallet } from "../../../src/ledger/wallet.js";
import { openForecastTask } from "../../../src/tasks/open-forecast/index.js";
import { OpenForecastParams } from "../../../src/tasks/open-forecast/params.js";
import type { OracleFeedback, TaskAgentClock, TaskRunContext } from "../../../src/tasks/task.js";
import { ToolRuntime } from "../../../src/tools/tool-runtime.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import type {
  LabelRow,
  MarketPriceRow,
  NewsRow,
  QuestionAnswerRow,
  QuestionResolutionRow,
  QuestionRow,
} from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";
import { WorldStore } from "../../../src/world/world-store.js";

export const DAY = 86_400_000;
export const T0 = Date.parse("2026-03-01T00:00:00Z");
export const d = (n: number) => T0 + n * DAY;

export interface TinyWorld {
  questions: QuestionRow[];
  resolutions?: QuestionResolutionRow[];
  answers?: QuestionAnswerRow[];
  labels?: LabelRow[];
  news?: NewsRow[];
  prices?: MarketPriceRow[];
}

export function q(id: string, open: number, resolve: number, extra: Partial<QuestionRow> = {}): QuestionRow {
  return {
    id,
    title: `Will ${id} happen?`,
    background: `Background of ${id}.`,
    criteria: `Resolves Yes if ${id} happens.`,
    open,
    resolve,
    answer_type: "binary",
    visible_at: open,
    ...extra,
  };
}

export function article(i: number, t: number, title: string, text = title): NewsRow {
  return {
    id: `n${i}`,
    url: `https://news.test/${i}`,
    domain: "news.test",
    title,
    text,
    published_at: t,
    visible_at: t,
  };
}

/** Builds a small world directory (window [d(0), d(10)]). */
export function buildTiny(w: TinyWorld, window = { start: d(0), end: d(10) }): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-of-")), "world");
  const b = WorldBuilder.create(dir, { name: "of-test", window, builder: "test", builder_version: "1" });
  try {
    b.insert("question", w.questions);
    if (w.resolutions?.length) b.insert("question_resolution", w.resolutions);
    if (w.news?.length) b.insert("news", w.news);
    if (w.prices?.length) b.insert("market_price", w.prices);
    if (w.answers?.length) b.insertTruth("question_answer", w.answers);
    if (w.labels?.length) b.insertTruth("label", w.labels);
    b.finish();
  } catch (e) {
    b.abort();
    throw e;
  }
  return dir;
}

/** The open-forecast tools over a world at a settable `now` (a runtime with its own ledger). */
export function harness(
  dir: string,
  o: {
    now: number;
    start?: number;
    end?: number;
    params?: Record<string, unknown>;
    agentClock?: TaskAgentClock;
    oracleFeedback?: OracleFeedback | null;
  },
) {
  const world = WorldStore.open(dir);
  let now = o.now;
  const clock = () => now;
  const start = o.start ?? d(0);
  const end = o.end ?? d(10);
  const ctx: TaskRunContext<OpenForecastParams> = {
    params: OpenForecastParams.parse(o.params ?? {}),
    sim_start: start,
    sim_end: end,
    view: world.at(clock),
    feedback: o.oracleFeedback ? "oracle" : "none",
    oracleFeedback: o.oracleFeedback ?? null,
    kernel: new Kernel({ start, end }),
    budget_usd: 20,
    env_seed: 1,
    world,
    ...(o.agentClock ? { agentClock: o.agentClock } : {}),
  };
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-of-ledger-")), "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: 20, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const run = openForecastTask.open(ctx);
  const tools = run.tools();
  const runtime = new ToolRuntime({ tools, limiters: {}, ledger, wallet, now: clock });
  return {
    ctx,
    run,
    runtime,
    ledger,
    wallet,
    tools: tools.map((t) => t.name),
    setNow: (t: number) => {
      now = t;
    },
    call: (tool: string, args: unknown) => runtime.call("agent", tool, args),
    close: () => {
      ledger.close();
      world.close();
    },
  };
}

export function scorerCtx(dir: string, o: { start?: number; end?: number; params?: Record<string, unknown> } = {}) {
  const world = WorldStore.open(dir);
  const truth = TruthStore.open(dir);
  return {
    ctx: { sim_start: o.start ?? d(0), sim_end: o.end ?? d(10), world, truth, params: o.params ?? {} },
    close: () => {
      world.close();
      truth.close();
    },
  };
}
