import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../agent/token-counter.js";
import { DAY_MS, isoInstant, MINUTE_MS, startOfUtcDay } from "../common/time.js";
import type { Kernel } from "../kernel/kernel.js";
import type { EventOf } from "../ledger/events.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { TaskRun, TaskRunContext } from "../tasks/task.js";
import type { ToolDef } from "../tools/tool.js";
import { LEARN_PREFIX } from "../triggers/trigger.js";
import { Curator, type CuratorOptions } from "./curator.js";
import { MemoryStore } from "./memory-store.js";
import { memoryTools } from "./memory-tools.js";
import { renderOutcomeBlock } from "./outcome-block.js";
import { OutcomeDrain, type OutcomeRecord, RecordsFile, recordsOfSelfLabels } from "./outcome-records.js";

export type MemoryMode = "none" | "outcome" | "reflection";

/** the daily learn instant: 00:30 UTC */
export const LEARN_OFFSET_MS = 30 * MINUTE_MS;
/** the learn wake's trigger id (a harness trigger: hidden from the agent's schedules) */
export const LEARN_TRIGGER_ID = `${LEARN_PREFIX}daily`;
/** the ledger actor of the learn step's notes */
export const LEARN_ACTOR = "learn";

export interface LearningOptions {
  memory: MemoryMode;
  /** the harness memory tools (`agent.memory_tools`; implied by outcome and reflection memory) */
  memoryTools: boolean;
  /** `<run>/memory`: rewritten by every (re-)run */
  dir: string;
  kernel: Kernel;
  /** the run's ledger: the learn step follows it (commitments and outcomes) through a subscription */
  ledger: LedgerWriter;
  run: TaskRun;
  ctx: TaskRunContext<unknown>;
  /** reflection only: the curator's model call settings (asked for at the first learn step, once the run's model exists) */
  curator: (() => CuratorOptions) | null;
}

/** What the runner wires into the agents: memory tools, the learned block and the learn wake. */
export interface Learning {
  /** the memory tools (empty when off) */
  readonly tools: ToolDef[];
  /** the learned block of the system prompt (re-rendered only at the daily learn step, so the prompt prefix stays stable) */
  learned(): string;
  /** installs the daily learn wake of one agent (outcome and reflection memory; nothing otherwise) */
  installWake(actorId: string): void;
  close(): void;
}

/**
 * The run's learning: the harness memory store and tools, and for `agent.memory: outcome |
 * reflection` the daily learn step at 00:30 UTC (a kernel callback, so it runs before any agent due
 * then) plus a learn wake of each agent right after it.
 *
 * - outcome: outcomes released (by `released_at`) since the last step drain into
 *   `memory/records.jsonl` through the task's oracle payload (or the task's `self` labels); the block
 *   is re-rendered with no LLM (`renderOutcomeBlock`, ≤ 5,000 tokens). Under `feedback: none` it is
 *   refused at config time; here there is no oracle channel to read at all (`ctx.oracleFeedback` is null).
 * - reflection: the curator reviews the commitments ledgered since the last step against what became
 *   visible since (`TaskRun.observations`, through the as-of view) and keeps ≤ 6 lessons
 *   (`memory/lessons.jsonl`).
 *
 * Everything lives in `<run>/memory`, beside the ledger and out of the agent's workspace, and is
 * rebuilt by re-running the episode (DESIGN invariant 3).
 */
export function setupLearning(o: LearningOptions): Learning {
  const on = o.memoryTools || o.memory !== "none";
  if (on) {
    rmSync(o.dir, { recursive: true, force: true });
    mkdirSync(o.dir, { recursive: true });
  }
  const store = o.memoryTools ? new MemoryStore(join(o.dir, "notes.jsonl")) : null;
  const tools = store ? memoryTools(store) : [];
  let block = "";
  const closers: (() => void)[] = [];
  if (store) closers.push(() => store.close());

  if (o.memory !== "none") {
    const { kernel, ctx } = o;
    const records: OutcomeRecord[] = [];
    const file = o.memory === "outcome" ? new RecordsFile(join(o.dir, "records.jsonl")) : null;
    if (file) closers.push(() => file.close());
    const lessonsFd = o.memory === "reflection" ? openSync(join(o.dir, "lessons.jsonl"), "w") : null;
    if (lessonsFd !== null) closers.push(() => closeSync(lessonsFd));
    const oracle = ctx.oracleFeedback;
    const drain = oracle ? new OutcomeDrain((x) => o.run.feedback.oracle(x)) : null;
    // the commitments ledgered since the last reflection step
    let commitments: EventOf<"commitment">[] = [];
    o.ledger.subscribe((e) => {
      drain?.observe(e);
      if (o.memory === "reflection" && e.type === "commitment") commitments.push(e);
    });
    const selfLabels = ctx.feedback === "self" ? o.run.feedback.self : null;
    if (o.memory === "outcome" && drain === null && selfLabels === null)
      throw new Error(
        "internal: outcome memory without settled outcomes (refused at config time under feedback: none)",
      );
    if (o.memory === "reflection" && o.curator === null)
      throw new Error("internal: reflection memory without a curator");
    let curator: Curator | null = null;
    let last: number | null = null;
    const step = async (now: number) => {
      if (o.memory === "outcome") {
        const fresh = drain ? drain.drain(now) : recordsOfSelfLabels(selfLabels!(last), now);
        file!.append(fresh);
        records.push(...fresh);
        block = renderOutcomeBlock(records, isoInstant(now));
        o.ledger.append({
          type: "note",
          t: now,
          actor: LEARN_ACTOR,
          kind: "learn",
          message: `outcome memory: ${fresh.length} outcome(s) drained, ${records.length} in memory, block ${countTokens(block)} tokens`,
        });
      } else if (o.curator) {
        curator ??= new Curator(o.curator());
        const fresh = commitments;
        commitments = [];
        const since = last ?? ctx.sim_start - 1;
        await curator.curate(now, fresh, o.run.observations(since, now));
        if (lessonsFd !== null)
          writeSync(lessonsFd, `${JSON.stringify({ t: isoInstant(now), lessons: curator.lessons })}\n`);
        block = curator.lessons.length
          ? [
              "Lessons (kept by a daily curator from what became visible after your actions):",
              ...curator.lessons.map((l, i) => `${i + 1}. ${l}`),
            ].join("\n")
          : "";
      }
      last = now;
      const next = now + DAY_MS;
      if (next < kernel.end) kernel.at(next, step);
    };
    let first = startOfUtcDay(ctx.sim_start) + LEARN_OFFSET_MS;
    if (first <= ctx.sim_start) first += DAY_MS;
    if (first < kernel.end) kernel.at(first, step);
  }
  return {
    tools,
    learned: () => block,
    installWake(actorId) {
      if (o.memory === "none") return;
      o.kernel.addCron(actorId, LEARN_TRIGGER_ID, "30 0 * * *", "daily learn wake (agent.memory)");
    },
    close() {
      for (const c of closers.splice(0)) c();
    },
  };
}
