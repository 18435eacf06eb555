import { createReadStream, existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { DailyBriefEvent, LlmRejectedEvent, ToolCallEvent, WakeEvent } from "../ledger/events.js";

export interface WakeMark {
  t: number;
  reason: string;
}

export interface LedgerScan {
  /** wakes in ledger order, thinned to at most `maxWakes` by keeping every `stride`-th */
  wakes: WakeMark[];
  totalWakes: number;
  stride: number;
  /**
   * when the run ran out of money (simulated ms): the first llm_rejected event, the first tool
   * call refused as unpaid, or just before the first daily brief with nothing left, whichever is
   * first; null when none occurs
   */
  exhaustedAt: number | null;
}

/** Cheap prefilters: only lines that can matter are parsed. */
const WAKE = '"type":"wake"';
const LLM_REJECTED = '"type":"llm_rejected"';
const UNPAID = '"status":"unpaid"';
const BRIEF = '"type":"daily_brief"';

/**
 * Streams a ledger line by line (never loading the file whole) and collects its wake events and
 * the moment its budget ran out. Wakes are thinned deterministically: when more than `maxWakes`
 * are kept, every other one is dropped and the stride doubles. A torn last line is ignored (as
 * the ledger reader does); an invalid line anywhere else is an error naming the file and line.
 */
export async function scanLedger(path: string, o: { maxWakes: number }): Promise<LedgerScan | null> {
  if (!existsSync(path)) return null;
  if (!(o.maxWakes >= 2)) throw new Error("maxWakes must be at least 2");
  let wakes: WakeMark[] = [];
  let stride = 1;
  let totalWakes = 0;
  let exhaustedAt: number | null = null;
  const exhausted = (t: number) => {
    if (exhaustedAt === null || t < exhaustedAt) exhaustedAt = t;
  };
  let pending: Error | null = null;
  let lineNo = 0;
  const rl = createInterface({
    input: createReadStream(path, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of rl) {
    lineNo++;
    if (pending) throw pending;
    const isWake = line.includes(WAKE);
    if (!isWake && !line.includes(LLM_REJECTED) && !line.includes(UNPAID) && !line.includes(BRIEF)) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      pending = new Error(`${path}:${lineNo}: not a valid ledger line: ${(err as Error).message}`);
      continue;
    }
    const type = (json as { type?: unknown }).type;
    const schema =
      type === "wake"
        ? WakeEvent
        : type === "llm_rejected"
          ? LlmRejectedEvent
          : type === "tool_call"
            ? ToolCallEvent
            : type === "daily_brief"
              ? DailyBriefEvent
              : null;
    if (!schema) continue;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      pending = new Error(
        `${path}:${lineNo}: not a valid ${type} event: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      );
      continue;
    }
    const e = parsed.data;
    switch (e.type) {
      case "wake":
        if (totalWakes % stride === 0) {
          wakes.push({ t: e.t, reason: e.reason });
          if (wakes.length > o.maxWakes) {
            wakes = wakes.filter((_, i) => i % 2 === 0);
            stride *= 2;
          }
        }
        totalWakes++;
        break;
      case "llm_rejected":
        exhausted(e.t);
        break;
      case "tool_call":
        if (e.status === "unpaid") exhausted(e.t);
        break;
      case "daily_brief":
        if (e.left_usd <= 0) exhausted(e.t - 1);
        break;
    }
  }
  return { wakes, totalWakes, stride, exhaustedAt };
}
