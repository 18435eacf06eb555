import { z } from "zod";
import { isoInstant } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { Wallet } from "../ledger/wallet.js";
import type {
  ChatMessage,
  GenerateRequest,
  GenerateResponse,
  ModelSettings,
  ToolSpec,
  Usage,
} from "../models/model.js";
import type { Observation } from "../tasks/task.js";
import { LESSON_MAX_CHARS, lessonProblem, MAX_LESSONS, worldTermsOf } from "./lessons.js";
import { type MeteredGenerate, meteredCall } from "./metered-call.js";

/** the curator's ledger actor (its llm_call lines, llm.jsonl entries and notes) */
export const CURATOR_ACTOR = "curator";
/** model calls per curation: the first and at most two re-asks after rejected lessons */
export const CURATOR_MAX_ASKS = 3;
/** commitments and observations shown per curation (the newest kept; the rest are counted) */
export const CURATOR_MAX_COMMITMENTS = 80;
export const CURATOR_MAX_OBSERVATIONS = 120;
export const SET_LESSONS_TOOL = "set_lessons";
/** the curator's reply cap when `agent.curator.max_output_tokens` is unset */
export const CURATOR_DEFAULT_MAX_OUTPUT_TOKENS = 1024;

const SetLessonsArgs = z
  .object({
    lessons: z.array(z.string()).max(MAX_LESSONS).describe(`at most ${MAX_LESSONS} lessons, each one sentence`),
  })
  .strict();

const SET_LESSONS: ToolSpec = {
  name: SET_LESSONS_TOOL,
  description: `Replace the agent's lessons (at most ${MAX_LESSONS}; each at most ${LESSON_MAX_CHARS} characters).`,
  parameters: z.toJSONSchema(SetLessonsArgs, { io: "input" }) as Record<string, unknown>,
};

/** One model call with retries, as the runner gives the agent (attempts reported for ledgering). */
export type CuratorGenerate = MeteredGenerate;

export interface CuratorOptions {
  ledger: LedgerWriter;
  wallet: Wallet;
  generate: CuratorGenerate;
  /** price-table key ledgered in llm_call.model */
  modelName: string;
  cost: (u: Usage) => number;
  settings: ModelSettings;
  /** the task's instruction (what the agent is asked to do) */
  instruction: string;
  /** the model's base URL, named when the provider fails for good */
  endpoint?: string;
}

export const CURATOR_SYSTEM =
  "You are the curator of an agent's lessons. The agent acts in a simulated world over many days. Each day you review " +
  "its commitments (the actions it took) against what became visible afterwards, and keep a short list of generalized " +
  `lessons for it: at most ${MAX_LESSONS}, each one sentence, about how to act better. A lesson must generalize: it may ` +
  "name no date or time, no id, no name of a company, market, person or other entity, and no price or amount. Call " +
  `${SET_LESSONS_TOOL} with the whole list (it replaces the previous one; keep lessons that still hold).`;

/**
 * The reflection curator (`agent.memory: reflection`): once a day it reviews the agent's commitments
 * against delayed visible data only (observations read through the run's as-of view; never truth,
 * the scorer or settled outcomes, so it runs under every feedback condition), makes one metered model
 * call (ledgered `llm_call` as actor "curator", booked by the wallet like any other) and keeps at most
 * MAX_LESSONS generalized lessons. An answer with a lesson naming a date, id, entity name or price
 * from the world is rejected with the reasons and the curator is asked again (CURATOR_MAX_ASKS calls
 * in all); after the last ask only the lessons that pass are kept.
 */
export class Curator {
  private callIndex = 0;
  lessons: string[] = [];

  constructor(private readonly o: CuratorOptions) {}

  private note(t: number, kind: string, message: string) {
    this.o.ledger.append({ type: "note", t, actor: CURATOR_ACTOR, kind, message });
  }

  /** One curation at `now` over the commitments and observations of the review window. */
  async curate(
    now: number,
    commitments: readonly Extract<LedgerEvent, { type: "commitment" }>[],
    observed: readonly Observation[],
  ): Promise<void> {
    const commits = commitments.slice(-CURATOR_MAX_COMMITMENTS);
    const obs = observed.slice(-CURATOR_MAX_OBSERVATIONS);
    const terms = worldTermsOf(
      [...obs.map((x) => x.id), ...commits.flatMap((c) => stringsIn(c.args))],
      obs.map((x) => x.summary),
    );
    const lines = [
      `Now: ${isoInstant(now)}.`,
      "## The agent's task",
      this.o.instruction.trim(),
      "## Current lessons",
      ...(this.lessons.length ? this.lessons.map((l, i) => `${i + 1}. ${l}`) : ["(none yet)"]),
      `## The agent's commitments since the last review (${commitments.length}${commitments.length > commits.length ? `; the newest ${commits.length} shown` : ""})`,
      ...(commits.length
        ? commits.map((c) => `- ${isoInstant(c.t)} ${c.actor} ${c.tool} ${JSON.stringify(c.args)}`.slice(0, 400))
        : ["(none)"]),
      `## What became visible since then (${observed.length}${observed.length > obs.length ? `; the newest ${obs.length} shown` : ""})`,
      ...(obs.length
        ? obs.map((x) => `- ${isoInstant(x.t)} ${x.kind} ${x.id}: ${x.summary}`.slice(0, 300))
        : ["(nothing)"]),
    ];
    const messages: ChatMessage[] = [{ role: "user", content: lines.join("\n") }];
    for (let ask = 1; ask <= CURATOR_MAX_ASKS; ask++) {
      const why = this.o.wallet.refusal("llm");
      if (why !== null) {
        this.o.ledger.append({ type: "llm_rejected", t: now, actor: CURATOR_ACTOR, reason: why });
        return;
      }
      const res = await this.call(now, {
        system: CURATOR_SYSTEM,
        messages: [...messages],
        tools: [SET_LESSONS],
        settings: this.o.settings,
      });
      if (res === null) return;
      const call = res.tool_calls.find((c) => c.name === SET_LESSONS_TOOL);
      messages.push({
        role: "assistant",
        content: res.content,
        ...(res.tool_calls.length ? { tool_calls: res.tool_calls } : {}),
      });
      let reply: string;
      let proposed: string[] | null = null;
      if (call === undefined) reply = `no ${SET_LESSONS_TOOL} call: call ${SET_LESSONS_TOOL} with the whole list`;
      else {
        let raw: unknown;
        try {
          raw = JSON.parse(call.arguments);
        } catch {
          raw = undefined;
        }
        const parsed = SetLessonsArgs.safeParse(raw);
        if (!parsed.success)
          reply = `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`;
        else {
          proposed = parsed.data.lessons.map((l) => l.trim());
          const bad = proposed.flatMap((l, i) => {
            const p = lessonProblem(l, terms);
            return p === null ? [] : [`lesson ${i + 1} rejected: ${p}`];
          });
          if (bad.length === 0) {
            this.lessons = proposed;
            this.note(now, "curator", `ask ${ask}: ${proposed.length} lesson(s) kept`);
            return;
          }
          reply = `${bad.join("; ")}. Lessons must generalize: no dates, ids, entity names or prices. Call ${SET_LESSONS_TOOL} again with the whole list.`;
        }
      }
      this.note(now, "curator_rejected", `ask ${ask}: ${reply}`);
      if (ask === CURATOR_MAX_ASKS) {
        if (proposed !== null) {
          this.lessons = proposed.filter((l) => lessonProblem(l, terms) === null);
          this.note(
            now,
            "curator",
            `after ${ask} asks: ${this.lessons.length} lesson(s) kept, the rejected ones dropped`,
          );
        }
        return;
      }
      const toolMessages: ChatMessage[] = res.tool_calls.map((c) => ({
        role: "tool",
        tool_call_id: c.id,
        name: c.name,
        content: c === call ? `ERROR: ${reply}` : `ERROR: unknown tool ${c.name}`,
      }));
      messages.push(...(toolMessages.length ? toolMessages : [{ role: "user" as const, content: reply }]));
    }
  }

  /** One ledgered model call (every attempt an llm_call line); null when it failed after its retries. */
  private call(now: number, req: GenerateRequest): Promise<GenerateResponse | null> {
    return meteredCall(this.o, CURATOR_ACTOR, this.callIndex++, now, req);
  }
}

/** string values inside commitment arguments (ids the agent named) */
function stringsIn(v: unknown): string[] {
  if (typeof v === "string") return /\d|[-_:]/.test(v) && v.length <= 120 ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v !== null && typeof v === "object") return Object.values(v).flatMap(stringsIn);
  return [];
}
