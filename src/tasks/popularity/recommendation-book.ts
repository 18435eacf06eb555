import type { PopularityParams } from "./params.js";
import { capWindowMs, horizonMs, type PriorRecommendations, type Recommendation } from "./recommend-rule.js";

/**
 * A run's accepted recommendations, in acceptance order (their times never decrease: the run's
 * clock never goes back), with the reads the rules and the views need, none of which scans the
 * whole book: by id (a map), the cap window and the pending ones (tails of the book, found from its
 * newest end). The `recommend` tool's state (rebuilt by re-running the episode on resume, DESIGN
 * invariant 3; `self` feedback reads it too: the agent's own commitments, no hidden data) and the
 * scorer's own re-checked copy.
 */
export class RecommendationBook implements PriorRecommendations {
  private readonly list: Recommendation[] = [];
  private readonly byId = new Map<string, Recommendation>();
  /** max(0, created_utc − t) over the book: a post may be visible (and recommended) before its creation instant */
  private lead = 0;

  get accepted(): readonly Recommendation[] {
    return this.list;
  }

  /** the last acceptance instant (null when empty): `accept` refuses anything earlier */
  lastAt(): number | null {
    return this.list.length === 0 ? null : this.list[this.list.length - 1]!.t;
  }

  /** records an accepted recommendation (not before the previous one, and each post once) */
  accept(r: Recommendation): void {
    const last = this.lastAt();
    if (last !== null && r.t < last)
      throw new Error(`recommendation book: ${r.t} is before the previous acceptance ${last}`);
    if (this.byId.has(r.id)) throw new Error(`recommendation book: ${JSON.stringify(r.id)} is already in the book`);
    this.list.push(r);
    this.byId.set(r.id, r);
    this.lead = Math.max(this.lead, r.created_utc - r.t);
  }

  get(id: string): Recommendation | undefined {
    return this.byId.get(id);
  }

  /** `inCapWindow(accepted, now, p)`: accepted in (now − window, now], in acceptance order */
  inCapWindow(now: number, p: Pick<PopularityParams, "cap_window_hours">): Recommendation[] {
    return this.since(now - capWindowMs(p), now);
  }

  /**
   * The accepted recommendations whose post is not yet revealed at `now` (t ≤ now < created +
   * horizon), in acceptance order. A pending one has t ≥ created − lead > now − horizon − lead, so
   * only that tail of the book is read (about `cap` per cap window), not the whole book.
   */
  pending(now: number, p: Pick<PopularityParams, "horizon_hours">): Recommendation[] {
    return this.revealingAfter(now, p).filter((r) => r.t <= now);
  }

  /**
   * The accepted recommendations whose post reveals after `t` (created + horizon > t), whenever
   * accepted, in acceptance order: the same tail bound as `pending` (t − horizon − lead).
   */
  revealingAfter(t: number, p: Pick<PopularityParams, "horizon_hours">): Recommendation[] {
    const H = horizonMs(p);
    return this.since(t - H - this.lead, Number.POSITIVE_INFINITY).filter((r) => t < r.created_utc + H);
  }

  /** accepted in (from, now], found from the newest end */
  private since(from: number, now: number): Recommendation[] {
    let i = this.list.length;
    while (i > 0 && this.list[i - 1]!.t > from) i--;
    const tail = this.list.slice(i);
    return now === Number.POSITIVE_INFINITY ? tail : tail.filter((r) => r.t <= now);
  }
}
