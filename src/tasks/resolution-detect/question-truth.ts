import type { TruthStore } from "../../world/truth-store.js";
import type { WorldStore } from "../../world/world-store.js";
import { isQuestion, type ResolutionDetectParams } from "./params.js";

/** Scorer-side facts of one question (never handed to an agent). */
export interface QuestionTruth {
  id: string;
  visible_at: number;
  outcomes: string[];
  /** t_det: the winning outcome's price enters the 0.99 band and never leaves the 0.95 band after (null: never) */
  t_det: number | null;
  /** the outcome determined at t_det */
  det_outcome: string | null;
  /** the market's close and result (the `market_resolution` row, whenever it becomes visible) */
  closed_at: number | null;
  result: string | null;
  /** when that resolution row becomes visible (null: the world holds no resolution) */
  resolution_visible_at: number | null;
}

/**
 * The truth of resolution-detect: every question market of the world with its `t_det` label (truth
 * store, kind `t_det`, key = market id, value.outcome) and its resolution row from the untouched
 * world.
 */
export class ResolutionTruth {
  readonly questions: QuestionTruth[];
  private readonly byId = new Map<string, QuestionTruth>();
  private readonly newsStmt;

  constructor(truth: TruthStore, world: WorldStore, p: ResolutionDetectParams) {
    const det = new Map<string, { t: number; outcome: string }>();
    for (const l of truth.labels("t_det")) {
      const outcome = l.value.outcome;
      if (l.t !== null && typeof outcome === "string" && !det.has(l.key)) det.set(l.key, { t: l.t, outcome });
    }
    const res = new Map<string, { closed_at: number; result: string; visible_at: number }>();
    for (const r of world.db
      .prepare("SELECT market, closed_at, result, visible_at FROM market_resolution ORDER BY visible_at, rowid")
      .all() as { market: string; closed_at: number; result: string; visible_at: number }[])
      if (!res.has(r.market)) res.set(r.market, { closed_at: r.closed_at, result: r.result, visible_at: r.visible_at });
    const rows = world.db.prepare("SELECT id, outcomes, visible_at FROM market ORDER BY id").all() as {
      id: string;
      outcomes: string;
      visible_at: number;
    }[];
    this.questions = rows
      .filter((r) => isQuestion(r.id, p))
      .map((r) => {
        const d = det.get(r.id);
        const z = res.get(r.id);
        return {
          id: r.id,
          visible_at: r.visible_at,
          outcomes: JSON.parse(r.outcomes) as string[],
          t_det: d?.t ?? null,
          det_outcome: d?.outcome ?? null,
          closed_at: z?.closed_at ?? null,
          result: z?.result ?? null,
          resolution_visible_at: z?.visible_at ?? null,
        };
      });
    for (const q of this.questions) this.byId.set(q.id, q);
    this.newsStmt = world.db.prepare("SELECT visible_at FROM news WHERE id = ?");
  }

  get(id: string): QuestionTruth | null {
    return this.byId.get(id) ?? null;
  }

  /** the instant an article becomes visible, or null for an unknown id */
  newsVisibleAt(id: string): number | null {
    return (this.newsStmt.get(id) as { visible_at: number } | undefined)?.visible_at ?? null;
  }
}
