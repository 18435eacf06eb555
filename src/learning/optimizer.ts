import { z } from "zod";
import { isoInstant } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { Wallet } from "../ledger/wallet.js";
import type { ChatMessage, ModelSettings, ToolSpec } from "../models/model.js";
import type { TaskRun, TaskRunContext } from "../tasks/task.js";
import {
  candidateOf,
  describeChange,
  type EditableHarness,
  type HarnessState,
  PROPOSE_EDIT_TOOL,
  ProposeEditArgs,
} from "./harness-edit.js";
import { type MeteredCaller, meteredCall } from "./metered-call.js";
import { OutcomeDrain, type OutcomeRecord, recordsOfSelfLabels } from "./outcome-records.js";
import { type PromotionRule, promote } from "./promotion.js";

/** the proposer's ledger actor (its llm_call lines, llm.jsonl entries and notes) */
export const PROPOSER_ACTOR = "proposer";
/** the actor of the optimizer's own notes (span records, edits, rejections) */
export const OPTIMIZER_ACTOR = "optimizer";
/** the note whose message is one span's record (JSON, `SpanRecordSchema`): results read it back */
export const SPAN_NOTE = "optimizer_span";
/** the proposer's reply cap when `agent.learning.max_output_tokens` is unset */
export const PROPOSER_DEFAULT_MAX_OUTPUT_TOKENS = 2048;
/** hindsight and commitments shown per cut (the newest kept; the rest are counted) */
export const PROPOSER_MAX_OUTCOMES = 60;
export const PROPOSER_MAX_COMMITMENTS = 60;

/**
 * One span's record, ledgered as a `note` (kind `optimizer_span`, the JSON as message) when the span
 * ends: its settled score, which harness ran it and what the promotion rule decided.
 */
export const SpanRecordSchema = z
  .object({
    span: z.number().int().positive(),
    from: z.string(),
    to: z.string(),
    /** the primary metric of a fresh scorer over [from, to) fed the span's ledger events (settled units only) */
    score: z.number().nullable(),
    /** control: the control arm; incumbent: no candidate ran; candidate: a candidate edit ran */
    harness: z.enum(["control", "incumbent", "candidate"]),
    /** candidate spans: the rule's decision (kept: the candidate became the incumbent) */
    decision: z.enum(["kept", "reverted"]).nullable(),
    reason: z.string(),
    /** what the span's harness changed against the configured one */
    changes: z.array(z.string()),
    /** the incumbent's reference score after this span */
    reference: z.number().nullable(),
  })
  .strict();
export type SpanRecord = z.infer<typeof SpanRecordSchema>;

export interface ProposerOptions extends MeteredCaller {
  wallet: Wallet;
  settings: ModelSettings;
}

export interface OptimizerOptions {
  control: boolean;
  rule: PromotionRule;
  direction: "higher" | "lower";
  maxAsks: number;
  /** the span boundaries: [sim_start, cut_1, …, cut_k, sim_end] */
  bounds: readonly number[];
  harness: EditableHarness;
  /** the run's ledger events so far, in order (kept by the optimizer's installer: the runner holds none) */
  events: readonly LedgerEvent[];
  /** the task's agent-facing payloads of outcomes and its self labels */
  run: Pick<TaskRun, "feedback">;
  /** the feedback condition and the oracle channel (null unless `feedback: oracle`) */
  ctx: Pick<TaskRunContext<unknown>, "feedback" | "oracleFeedback">;
  /** the settled primary over [from, to), from the ledger (the runner's fresh scorer); never shown to the proposer */
  spanScore: (from: number, to: number) => number | null;
  ledger: MeteredCaller["ledger"];
  /** the task's instruction (what the agent is asked to do) */
  instruction: string;
  /** the proposer's model call (asked for at the first cut, once the run's models exist); null: the control arm */
  proposer: (() => ProposerOptions) | null;
}

const PROPOSE_EDIT: ToolSpec = {
  name: PROPOSE_EDIT_TOOL,
  description:
    "Propose the harness for the next span: any of a new addendum (replaces the current one), tunable task params, " +
    "a watcher program. Give only what you change; an edit that changes nothing keeps the current harness.",
  parameters: z.toJSONSchema(ProposeEditArgs, { io: "input" }) as Record<string, unknown>,
};

export const PROPOSER_SYSTEM =
  "You optimize the harness of an agent that acts in a simulated world over many days. The episode is cut into spans; " +
  "at each cut you see the agent's trajectory so far and the outcomes released so far, and you may edit its harness for " +
  "the next span: the additional instructions it is shown after its task, the task parameters it may tune, and (under " +
  "the watcher trigger) a watcher program in its workspace. A predeclared rule later keeps your edit or reverts it. " +
  `Call ${PROPOSE_EDIT_TOOL} once with the edit and a short rationale.`;

/**
 * The harness optimizer (`agent.learning: {method: optimizer}`; spec/harness.md "Harness optimizer").
 * The episode's spans end at `bounds`; at each cut (a kernel callback at the day start, after the
 * settlement up to it and before any agent due then):
 * 1. the ending span is scored (`spanScore`: settled units only) and judged: a candidate edit that ran
 *    in it is kept or reverted by the promotion rule against the incumbent's reference score;
 * 2. unless this is the control arm, the proposer sees the trajectory and the outcomes released so
 *    far (`released_at` ≤ now; never the scorer, the span scores, truth or the future) and proposes
 *    an edit; a valid one that changes something becomes the candidate of the next span, applied
 *    whole (`EditableHarness.set`); a bad one is refused with its reason and asked again
 *    (`maxAsks` calls in all), and never applied in part.
 * `finish` scores and judges the last span at the end. Every decision is a ledger note, every proposer
 * call an `llm_call` the wallet books; the proposer's replies replay from llm.jsonl on resume, so the
 * same edits apply at the same instants (DESIGN invariant 3).
 */
export class Optimizer {
  private span = 1;
  private incumbent: HarnessState;
  private readonly configured: HarnessState;
  private candidate: HarnessState | null = null;
  private reference: number | null = null;
  private callIndex = 0;
  private readonly drain: OutcomeDrain | null;
  private readonly hindsight: OutcomeRecord[] = [];
  private lastCut: number | null = null;
  private readonly history: string[] = [];
  private proposer: ProposerOptions | null = null;

  constructor(private readonly o: OptimizerOptions) {
    this.incumbent = o.harness.state();
    this.configured = this.incumbent;
    const oracle = o.ctx.oracleFeedback;
    this.drain = oracle ? new OutcomeDrain((x) => o.run.feedback.oracle(x)) : null;
    if (this.drain === null && o.ctx.feedback !== "self")
      throw new Error("internal: the optimizer without settled outcomes (refused at config time under feedback: none)");
  }

  /** the run's next ledger event (the caller also appends it to `events`) */
  observe(e: LedgerEvent): void {
    this.drain?.observe(e);
  }

  private note(t: number, kind: string, message: string) {
    this.o.ledger.append({ type: "note", t, actor: OPTIMIZER_ACTOR, kind, message });
  }

  /** the cut at the end of the current span (`now` = its end): score, judge, propose */
  async cut(now: number): Promise<void> {
    this.judge(now);
    this.span++;
    this.refreshHindsight(now);
    if (!this.o.control) await this.propose(now);
    this.lastCut = now;
  }

  /** the run's end: the last span is scored and judged (nothing runs after it) */
  finish(end: number): void {
    this.judge(end);
  }

  private judge(end: number): void {
    const from = this.o.bounds[this.span - 1]!;
    const score = this.o.spanScore(from, end);
    const ran = this.candidate;
    let harness: SpanRecord["harness"];
    let decision: SpanRecord["decision"] = null;
    let reason: string;
    if (this.o.control) {
      harness = "control";
      reason = "control arm: the harness is never edited";
      this.reference = score;
    } else if (ran === null) {
      harness = "incumbent";
      reason = "no candidate ran: the incumbent's score is its new reference";
      this.reference = score;
    } else {
      harness = "candidate";
      const d = promote(this.o.rule, this.o.direction, score, this.reference);
      decision = d.keep ? "kept" : "reverted";
      reason = d.reason;
      if (d.keep) {
        this.incumbent = ran;
        this.reference = score;
      } else if (end < this.o.bounds.at(-1)!) this.o.harness.set(this.incumbent);
      this.history.push(`span ${this.span}: ${describeChange(this.configured, ran).join(", ")} (${decision})`);
    }
    this.candidate = null;
    const rec: SpanRecord = {
      span: this.span,
      from: isoInstant(from),
      to: isoInstant(end),
      score,
      harness,
      decision,
      reason,
      changes: describeChange(this.configured, ran ?? this.incumbent),
      reference: this.reference,
    };
    this.note(end, SPAN_NOTE, JSON.stringify(rec));
  }

  /** outcomes released in (last cut, now], through the task's agent-facing payload (or its self labels) */
  private refreshHindsight(now: number): void {
    const self = this.o.run.feedback.self;
    if (this.drain) this.hindsight.push(...this.drain.drain(now));
    else if (self) this.hindsight.push(...recordsOfSelfLabels(self(this.lastCut), now));
  }

  private async propose(now: number): Promise<void> {
    this.proposer ??= this.o.proposer?.() ?? null;
    const p = this.proposer;
    if (p === null) throw new Error("internal: an optimizer arm without a proposer");
    const messages: ChatMessage[] = [{ role: "user", content: this.inputs(now) }];
    for (let ask = 1; ask <= this.o.maxAsks; ask++) {
      const why = p.wallet.refusal("llm");
      if (why !== null) {
        this.o.ledger.append({ type: "llm_rejected", t: now, actor: PROPOSER_ACTOR, reason: why });
        this.note(now, "optimizer_no_edit", `span ${this.span}: the proposer's call was refused (${why})`);
        return;
      }
      const res = await meteredCall(p, PROPOSER_ACTOR, this.callIndex++, now, {
        system: PROPOSER_SYSTEM,
        messages: [...messages],
        tools: [PROPOSE_EDIT],
        settings: p.settings,
      });
      if (res === null) {
        this.note(now, "optimizer_no_edit", `span ${this.span}: the proposer failed; the incumbent runs`);
        return;
      }
      const call = res.tool_calls.find((c) => c.name === PROPOSE_EDIT_TOOL);
      messages.push({
        role: "assistant",
        content: res.content,
        ...(res.tool_calls.length ? { tool_calls: res.tool_calls } : {}),
      });
      const verdict = call === undefined ? `no ${PROPOSE_EDIT_TOOL} call` : this.evaluate(call.arguments);
      if (typeof verdict !== "string") {
        const changes = describeChange(this.incumbent, verdict.state);
        if (changes.length === 0) {
          this.note(now, "optimizer_no_edit", `span ${this.span}: the proposal changes nothing; the incumbent runs`);
          return;
        }
        this.o.harness.set(verdict.state);
        this.candidate = verdict.state;
        this.note(
          now,
          "optimizer_edit",
          `span ${this.span}: candidate applied (${changes.join(", ")}); rationale: ${verdict.rationale}`,
        );
        return;
      }
      this.note(now, "optimizer_rejected", `span ${this.span} ask ${ask}: ${verdict}`);
      if (ask === this.o.maxAsks) {
        this.note(
          now,
          "optimizer_no_edit",
          `span ${this.span}: no valid proposal after ${ask} asks; the incumbent runs`,
        );
        return;
      }
      const reply = `${verdict}. Call ${PROPOSE_EDIT_TOOL} again with a valid edit.`;
      const toolMessages: ChatMessage[] = res.tool_calls.map((c) => ({
        role: "tool",
        tool_call_id: c.id,
        name: c.name,
        content: c === call ? `ERROR: ${reply}` : `ERROR: unknown tool ${c.name}`,
      }));
      messages.push(...(toolMessages.length ? toolMessages : [{ role: "user" as const, content: reply }]));
    }
  }

  /** the proposal's candidate state, or why it is refused (nothing is applied on a refusal) */
  private evaluate(args: string): { state: HarnessState; rationale: string } | string {
    let raw: unknown;
    try {
      raw = JSON.parse(args);
    } catch {
      return "invalid arguments: not JSON";
    }
    const parsed = ProposeEditArgs.safeParse(raw);
    if (!parsed.success)
      return `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`;
    const c = candidateOf(this.incumbent, parsed.data, this.o.harness);
    if (!c.ok) return c.reason;
    const problem = this.o.harness.check(c.state);
    if (problem !== null) return problem;
    return { state: c.state, rationale: parsed.data.rationale.slice(0, 500) };
  }

  /** what the proposer sees at `now`: the task, the harness, the trajectory and the released hindsight */
  private inputs(now: number): string {
    const h = this.o.harness;
    const events = this.o.events;
    const commitments = events.filter(
      (e): e is Extract<LedgerEvent, { type: "commitment" }> => e.type === "commitment",
    );
    const shownCommits = commitments.slice(-PROPOSER_MAX_COMMITMENTS);
    const perSpan = this.o.bounds.slice(0, this.span - 1).map((from, i) => {
      const to = this.o.bounds[i + 1]!;
      const inSpan = events.filter((e) => e.t >= from && e.t < to);
      const count = (f: (e: LedgerEvent) => boolean) => inSpan.filter(f).length;
      return (
        `- span ${i + 1} (${isoInstant(from)} → ${isoInstant(to)}): ${count((e) => e.type === "wake")} wakes, ` +
        `${count((e) => e.type === "tool_call")} tool calls (${count((e) => e.type === "tool_call" && e.status !== "ok")} refused), ` +
        `${count((e) => e.type === "commitment")} commitments`
      );
    });
    const outcomes = this.hindsight.slice(-PROPOSER_MAX_OUTCOMES);
    const programs = h.surfaces.includes("watcher_program") ? this.programsShown() : [];
    const tunable = Object.entries(h.tunable);
    const cur = this.incumbent;
    return [
      `Now: ${isoInstant(now)}. Span ${this.span} of ${this.o.bounds.length - 1} starts now.`,
      "## The agent's task",
      this.o.instruction.trim(),
      "## The current harness",
      `Editable: ${h.surfaces.join(", ")}.`,
      `Additional instructions: ${cur.addendum.trim() ? `\n${cur.addendum.trim()}` : "(none)"}`,
      ...(tunable.length
        ? [
            "Tunable task params (name: what it changes; configured → current):",
            ...tunable.map(
              ([k, d]) =>
                `- ${k}: ${d}; ${JSON.stringify(h.configured(k))} → ${JSON.stringify(cur.tuned[k] ?? h.configured(k))}`,
            ),
          ]
        : []),
      ...programs,
      "## Earlier edits",
      ...(this.history.length ? this.history.map((x) => `- ${x}`) : ["(none)"]),
      "## The trajectory so far",
      ...perSpan,
      `Commitments (${commitments.length}${commitments.length > shownCommits.length ? `; the newest ${shownCommits.length} shown` : ""}):`,
      ...(shownCommits.length
        ? shownCommits.map((c) => `- ${isoInstant(c.t)} ${c.actor} ${c.tool} ${JSON.stringify(c.args)}`.slice(0, 400))
        : ["(none)"]),
      `## Outcomes released so far (${this.hindsight.length}${this.hindsight.length > outcomes.length ? `; the newest ${outcomes.length} shown` : ""})`,
      ...(outcomes.length
        ? outcomes.map((r) => `- ${JSON.stringify({ released: r.t, ...r.outcome, note: r.note, action: r.action })}`)
        : ["(none yet)"]),
    ].join("\n");
  }

  /** the watcher programs the agent ran so far (their current source), for a watcher-program edit */
  private programsShown(): string[] {
    const paths = new Set<string>();
    for (const e of this.o.events)
      if (e.type === "tool_call" && e.tool === "run_program" && e.status === "ok") {
        const p = (e.args as { path?: unknown } | null)?.path;
        if (typeof p === "string") paths.add(p);
      }
    for (const p of Object.keys(this.incumbent.programs)) paths.add(p);
    if (paths.size === 0) return ["Watcher programs run so far: (none)"];
    return [
      "Watcher programs run so far (current source):",
      ...[...paths].sort().flatMap((p) => {
        const src = this.o.harness.readProgram(p);
        return [`### ${p}`, src === null ? "(absent)" : src.slice(0, 8000)];
      }),
    ];
  }
}
