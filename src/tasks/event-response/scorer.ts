import { HOUR_MS } from "../../common/time.js";
import { quantileOf } from "../metrics.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { EventFacts } from "./event-facts.js";
import { EventResponseParams } from "./params.js";
import { expectedAction, type TaskFile } from "./task-file.js";
import { RESPOND_TOOL } from "./tools.js";

export const EVENT_RESPONSE_SCORER_VERSION = "event-response-scorer/1";

interface Scored {
  id: string;
  kind: string;
  t: number;
  due: number;
  expected: string | null;
  /** when the event itself becomes visible (its outcome names it: never released before) */
  visible_at: number;
}

/**
 * event-response scorer (tasks.md §11). Scored: every event of a kind that needs a response with t in
 * [sim_start, sim_end) whose deadline t + deadline(kind) is ≤ sim_end (later: not_scorable,
 * "settles after window"). An event settles at its deadline: `ok` when its first accepted response
 * came in [t, deadline) with the expected action (or any action without a label), `wrong_action`
 * in time with another action, `miss` with none in time. The report splits the misses into `late`
 * (answered after the deadline, within the run) and `miss` (never answered). Responses are re-checked
 * against the world (the event exists, is visible at the response, needs a response, first for it);
 * respond calls naming a visible event of a kind that needs none are `noise`. An outcome is released
 * to feedback at max(deadline, the event's visible_at): its payload names the event.
 */
export class EventResponseScorer extends ScorerBase {
  protected readonly watchedTools = new Set([RESPOND_TOOL]);
  private readonly task: TaskFile;
  private readonly facts: EventFacts;
  private readonly scored: Scored[];
  private readonly late: NotScorable[];
  private readonly responses = new Map<string, { t: number; action: string }>();
  private emitted = 0;
  private noise = 0;
  private ignored = 0;
  private rejected = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.task = EventResponseParams.parse(ctx.params).task;
    this.facts = new EventFacts(ctx.world.db);
    const all = this.facts
      .ofKinds(Object.keys(this.task.respond), ctx.sim_start, ctx.sim_end)
      .map((e) => ({
        id: e.id,
        kind: e.kind,
        t: e.t,
        due: e.t + this.task.respond[e.kind]!.deadline_ms,
        expected: expectedAction(this.task.respond[e.kind]!.action, e.payload),
        visible_at: e.visible_at,
      }))
      .sort((a, b) => a.due - b.due || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.scored = all.filter((e) => e.due <= ctx.sim_end);
    this.late = all
      .filter((e) => e.due > ctx.sim_end)
      .map((e) => ({ key: `event:${e.id}`, reason: "settles after window" }));
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejected++;
    const id = (e.args as { event_id?: unknown } | null)?.event_id;
    if (typeof id !== "string") return;
    const ev = this.facts.byId(id);
    if (ev && ev.visible_at <= e.t && this.task.respond[ev.kind] === undefined) this.noise++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== RESPOND_TOOL) return;
    const a = e.args as { event_id?: unknown; action?: unknown } | null;
    const id = a?.event_id;
    const action = a?.action;
    const ev = typeof id === "string" ? this.facts.byId(id) : null;
    if (
      !ev ||
      typeof action !== "string" ||
      ev.visible_at > e.t ||
      this.task.respond[ev.kind] === undefined ||
      this.responses.has(ev.id)
    ) {
      this.ignored++;
      return;
    }
    this.responses.set(ev.id, { t: e.t, action });
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.scored.length) {
      const ev = this.scored[this.emitted]!;
      if (ev.due > t) break;
      const r = this.responses.get(ev.id);
      const inTime = r !== undefined && r.t >= ev.t && r.t < ev.due;
      const status = !inTime ? "miss" : ev.expected === null || r.action === ev.expected ? "ok" : "wrong_action";
      out.push({
        t: ev.due,
        // an event visible only after its deadline (a late log line) is a miss at the deadline, but
        // feedback names it only once the world shows it (its id, kind and time are in the payload)
        ...(ev.visible_at > ev.due ? { released_at: ev.visible_at } : {}),
        key: `event:${ev.id}`,
        status,
        credit: status === "ok" ? 1 : 0,
        detail: {
          event_id: ev.id,
          kind: ev.kind,
          event_t: ev.t,
          due: ev.due,
          expected_action: ev.expected,
          action: inTime ? r.action : null,
          responded_at: inTime ? r.t : null,
          ...(inTime ? { reaction_h: (r.t - ev.t) / HOUR_MS } : {}),
        },
      });
      this.emitted++;
    }
    return out;
  }

  report(): ScoreReport {
    let ok = 0;
    let wrong = 0;
    let late = 0;
    let miss = 0;
    const reactions: number[] = [];
    for (const ev of this.scored) {
      const r = this.responses.get(ev.id);
      if (r === undefined) {
        miss++;
        continue;
      }
      reactions.push((r.t - ev.t) / HOUR_MS);
      if (r.t >= ev.due) late++;
      else if (ev.expected === null || r.action === ev.expected) ok++;
      else wrong++;
    }
    const scoredIds = new Set(this.scored.map((e) => e.id));
    const n = this.scored.length;
    const rate = n === 0 ? null : ok / n;
    const notScorable: NotScorable[] = [...this.late];
    if (n === 0)
      notScorable.push({ key: "on_time_rate", reason: "no event needing a response settles inside the window" });
    reactions.sort((a, b) => a - b);
    return {
      primary: { name: "on_time_rate", value: rate, direction: "higher" },
      metrics: {
        on_time_rate: rate,
        needing_response: n,
        ok,
        wrong_action: wrong,
        late,
        miss,
        missed_deadlines: late + miss,
        noise: this.noise,
        responses: this.responses.size,
        responses_unscored: [...this.responses.keys()].filter((id) => !scoredIds.has(id)).length,
        responds_rejected: this.rejected,
        commitments_ignored: this.ignored,
        reaction_h_p50: quantileOf(reactions, 0.5),
        reaction_h_p90: quantileOf(reactions, 0.9),
        reaction_h_max: reactions.length ? reactions[reactions.length - 1]! : null,
      },
      not_scorable: notScorable,
    };
  }
}
