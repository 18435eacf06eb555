import { lowerBound, upperBound } from "../../common/sorted-search.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { BOOK_KINDS, type BookEvent, type BookKind, bookEvent } from "./book-events.js";

/** The earliest instant a cursor starts from (before every row). */
const BEFORE_ALL = -8.64e15;

/** A book event with the instant it became visible. */
export interface Arrival {
  visible_at: number;
  e: BookEvent;
}

const byTId = (a: BookEvent, b: BookEvent) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Inserts `x` into `arr` (sorted by `cmp`) after every element not greater than it; arrivals mostly append. */
export function insertSorted<T>(arr: T[], x: T, cmp: (a: T, b: T) => number): void {
  let i = arr.length;
  while (i > 0 && cmp(arr[i - 1] as T, x) > 0) i--;
  arr.splice(i, 0, x);
}

/** The merge of two lists sorted by `cmp` (a total order): equal to sorting their concatenation. */
export function mergeSorted<T>(a: readonly T[], b: readonly T[], cmp: (x: T, y: T) => number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(cmp(a[i] as T, b[j] as T) <= 0 ? (a[i++] as T) : (b[j++] as T));
  while (i < a.length) out.push(a[i++] as T);
  while (j < b.length) out.push(b[j++] as T);
  return out;
}

/**
 * The PM book's visible rows, kept incrementally: a cursor (`upTo`) on the view's
 * `broker.arrivals`, so each wake reads only the rows that became visible since the last one,
 * instead of rescanning and re-parsing the whole book. The bound stays inside the query: `sync`
 * asks for (upTo, view.now()] and the view caps it at its own now, so nothing from after the clock
 * is ever read. When the view's clock moves back (a test's `setNow`, a capped view), the log starts
 * over from scratch (`generation` changes, so derived lists rebuild too). Every answer equals the
 * from-scratch rebuild at the view's now (test/tasks/broker-ops/book-log.property.test.ts).
 */
export class BookLog {
  private upTo = BEFORE_ALL;
  private gen = 0;
  /** every visible book event, by (t, id) */
  private byT: BookEvent[] = [];
  private byKind = new Map<BookKind, BookEvent[]>();
  /** every visible book event in arrival order (visible_at, id): append-only within a generation */
  private arrived: Arrival[] = [];

  constructor(private readonly view: AsOfView) {
    this.reset();
  }

  private reset(): void {
    this.upTo = BEFORE_ALL;
    this.gen++;
    this.byT = [];
    this.byKind = new Map(BOOK_KINDS.map((k) => [k, []]));
    this.arrived = [];
  }

  /** reads the rows that became visible since the last sync (all of them after a clock moved back) */
  sync(): void {
    const now = this.view.now();
    if (now === this.upTo) return;
    if (now < this.upTo) this.reset();
    for (const r of this.view.broker.arrivals(this.upTo, now)) {
      const e = bookEvent(r);
      if (!e) continue;
      this.arrived.push({ visible_at: r.visible_at, e });
      insertSorted(this.byT, e, byTId);
      insertSorted(this.byKind.get(e.kind) as BookEvent[], e, byTId);
    }
    this.upTo = now;
  }

  /** changes whenever the log starts over: a derived list built at another generation is stale */
  generation(): number {
    this.sync();
    return this.gen;
  }

  /** visible book events with t ≥ since (all when omitted), of one kind when given, by (t, id) */
  events(opts: { since?: number; kind?: BookKind } = {}): BookEvent[] {
    this.sync();
    const arr = opts.kind === undefined ? this.byT : (this.byKind.get(opts.kind) as BookEvent[]);
    return opts.since === undefined ? arr.slice() : arr.slice(lowerBound(arr, opts.since, (e) => e.t));
  }

  /** the last visible event of `kind` by (t, id), when any */
  last(kind: BookKind): BookEvent | undefined {
    this.sync();
    return (this.byKind.get(kind) as BookEvent[]).at(-1);
  }

  /** arrivals with visible_at in (after, until] (until capped at now), by (visible_at, id) */
  arrivedIn(after: number, until: number): Arrival[] {
    this.sync();
    const hi = upperBound(this.arrived, Math.min(until, this.upTo), (a) => a.visible_at);
    const lo = upperBound(this.arrived, after, (a) => a.visible_at);
    return lo < hi ? this.arrived.slice(lo, hi) : [];
  }

  /** the arrivals from index `from` of this generation on (for lists derived incrementally) */
  arrivalsFrom(from: number): Arrival[] {
    this.sync();
    return this.arrived.slice(from);
  }
}
