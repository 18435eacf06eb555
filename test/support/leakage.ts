/**
 * R1 harness shared by every task's leakage property test: for random cut times c and random call
 * sequences, a task's tools on the full world at now = c must return exactly what they return on a
 * copy of the world with every row visible after c deleted — results, rejection texts, prices,
 * rate-limit answers, and therefore the whole ledger, byte for byte.
 *
 * News: with `news: true` rows of `news` and `news_order` visible after c are deleted too; the FTS
 * index is kept (BM25 corpus statistics may be global, DESIGN invariant 2), so a search that is not
 * bounded inside the query would return rows the truncated copy cannot join, and the test fails.
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { expect } from "vitest";
import { Kernel } from "../../src/kernel/kernel.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { getTask } from "../../src/tasks/registry.js";
import type { FeedbackCondition, TaskRunContext } from "../../src/tasks/task.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import { WorldStore } from "../../src/world/world-store.js";

export type Probe = [tool: string, args: unknown];

export function truncatedCopy(worldDir: string, cut: number, o: { news?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "relive-cut-"));
  for (const f of ["world.json", "world.db", "truth.db"]) copyFileSync(join(worldDir, f), join(dir, f));
  const db = new Database(join(dir, "world.db"));
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  for (const { name } of tables) {
    if (name.startsWith("news") && !(o.news && (name === "news" || name === "news_order"))) continue;
    const cols = db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[];
    if (cols.some((c) => c.name === "visible_at")) db.prepare(`DELETE FROM ${name} WHERE visible_at > ?`).run(cut);
  }
  db.close();
  return dir;
}

export interface HarnessOptions {
  start: number;
  end: number;
  envSeed?: number;
  params?: unknown;
  feedback?: FeedbackCondition;
}

/** A task's tool runtime over one world at a frozen `now` (no kernel movement, no feedback). */
export function toolHarness(taskId: string, worldDir: string, now: number, o: HarnessOptions) {
  const task = getTask(taskId);
  const world = WorldStore.open(worldDir);
  const kernel = new Kernel({ start: o.start, end: o.end });
  const clock = () => now;
  const ctx: TaskRunContext<unknown> = {
    params: task.params.parse(o.params ?? {}),
    sim_start: o.start,
    sim_end: o.end,
    view: world.at(clock),
    feedback: o.feedback ?? "none",
    oracleFeedback: null,
    kernel,
    budget_usd: task.budget_usd,
    env_seed: o.envSeed ?? 1234,
    world,
  };
  const ledgerPath = join(mkdtempSync(join(tmpdir(), "relive-leak-")), "ledger.jsonl");
  const ledger = LedgerWriter.create(ledgerPath);
  const wallet = new Wallet({ budget_usd: task.budget_usd, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const run = task.open(ctx);
  const runtime = new ToolRuntime({
    tools: run.tools(),
    limiters: run.limiters(),
    ledger,
    wallet,
    now: clock,
  });
  const close = () => {
    ledger.close();
    world.close();
  };
  return { runtime, run, ledgerPath, world, close };
}

/**
 * Runs `callsPerCut` probes at each of `cuts` cut times on the full world and on its truncated copy
 * and asserts byte-identical results and ledgers. Returns the number of probes made.
 */
export async function checkLeakage(o: {
  taskId: string;
  worldDir: string;
  calls: fc.Arbitrary<Probe>;
  cuts: number[];
  callsPerCut: number;
  news?: boolean;
  harness: HarnessOptions;
  seed?: number;
}): Promise<number> {
  let probes = 0;
  for (const [i, cut] of o.cuts.entries()) {
    const cutDir = truncatedCopy(o.worldDir, cut, { news: o.news ?? false });
    const a = toolHarness(o.taskId, o.worldDir, cut, o.harness);
    const b = toolHarness(o.taskId, cutDir, cut, o.harness);
    try {
      for (const [tool, args] of fc.sample(o.calls, { numRuns: o.callsPerCut, seed: (o.seed ?? 100) + i })) {
        const ra = await a.runtime.call("agent", tool, args);
        const rb = await b.runtime.call("agent", tool, args);
        expect(JSON.stringify(rb), `${tool} ${JSON.stringify(args)} at ${new Date(cut).toISOString()}`).toBe(
          JSON.stringify(ra),
        );
        probes++;
      }
    } finally {
      await a.run.dispose();
      await b.run.dispose();
      a.close();
      b.close();
    }
    expect(readFileSync(b.ledgerPath, "utf8")).toBe(readFileSync(a.ledgerPath, "utf8"));
  }
  return probes;
}

/** An epoch-ms or ISO time argument in [lo, hi]. */
export const timeArg = (lo: number, hi: number) =>
  fc.oneof(
    fc.integer({ min: lo, max: hi }),
    fc.integer({ min: lo, max: hi }).map((t) => new Date(t).toISOString()),
  );
