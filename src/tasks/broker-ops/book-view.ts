import { DAY_MS, HOUR_MS } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { BookEvent, BookKind, MarginCallEvent } from "./book-events.js";
import { BookLog } from "./book-log.js";
import type { BrokerOpsParams } from "./params.js";

/** How far back a mark is looked up (a candle older than this gives no mark). */
const MARK_LOOKBACK_MS = 6 * HOUR_MS;

export interface Mark {
  price: number;
  /** when the candle completed (its close time) */
  as_of: number;
}

export interface AccountState {
  as_of: number;
  /** false before the book's first position row is visible */
  opened: boolean;
  positions: Record<string, number>;
  cash: number;
  marks: Record<string, Mark | null>;
  market_value: Record<string, number | null>;
  equity: number | null;
  gross_market_value: number | null;
  margin_ratio: number | null;
  maintenance: number;
}

export type OrderStatus = "open" | "filled" | "expired";

export interface PmOrder {
  order_id: string;
  placed_at: number;
  symbol: string;
  side: "buy" | "sell";
  qty: number;
  limit_price: number;
  expires_at: number;
  status: OrderStatus;
  /** fill instant and price when filled */
  filled_at: number | null;
  fill_price: number | null;
}

export interface MarginCallState {
  call_id: string;
  issued_at: number;
  ratio: number;
  maintenance: number;
  equity: number;
  gross_market_value: number;
  required_amount: number;
  deadline: number;
  /** treasury wire received for it (at its deadline), when visible */
  wired_at: number | null;
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** The maintenance ratio the schedule gives at `t` (episode day 1 starts at `start`). */
export function maintenanceAt(schedule: BrokerOpsParams["maintenance"], start: number, t: number): number {
  const day = Math.floor((t - start) / DAY_MS) + 1;
  const sorted = [...schedule].sort((a, b) => a.from_day - b.from_day);
  let r = sorted[0]!.ratio;
  for (const s of sorted) if (day >= s.from_day) r = s.ratio;
  return r;
}

/** The last completed candle's close of `symbol` on `venue` as seen by `view` (null when none is recent). */
export function markOf(view: AsOfView, venue: string, symbol: string): Mark | null {
  const now = view.now();
  const best = view.exchanges.latest(venue, symbol, now - MARK_LOOKBACK_MS, now);
  return best ? { price: best.c, as_of: best.visible_at } : null;
}

/**
 * The PM book as the desk sees it now: everything is read through the as-of view (rows visible at
 * `view.now()`, kept by `BookLog` on the view's arrivals cursor), so nothing here can reveal a later event.
 */
export class BookView {
  /** the visible rows, kept incrementally on an as-of arrivals cursor (`BookLog`) */
  readonly log: BookLog;

  constructor(
    private readonly view: AsOfView,
    private readonly p: BrokerOpsParams,
    private readonly simStart: number,
  ) {
    this.log = new BookLog(view);
  }

  now(): number {
    return this.view.now();
  }

  assets(): string[] {
    return Object.keys(this.p.symbols).sort();
  }

  /** visible book events with t ≥ since (all when omitted), of one kind when given, by (t, id) */
  events(opts: { since?: number; kind?: BookKind } = {}): BookEvent[] {
    return this.log.events(opts);
  }

  mark(asset: string): Mark | null {
    const symbol = this.p.symbols[asset];
    return symbol === undefined ? null : markOf(this.view, this.p.venue, symbol);
  }

  maintenance(): number {
    return maintenanceAt(this.p.maintenance, this.simStart, this.now());
  }

  account(): AccountState {
    const now = this.now();
    const last = this.log.last("position");
    const positions: Record<string, number> = {};
    for (const a of this.assets()) positions[a] = 0;
    let cash = 0;
    if (last?.kind === "position") {
      for (const [a, q] of Object.entries(last.p.positions)) positions[a] = q;
      cash = last.p.cash;
    }
    const marks: Record<string, Mark | null> = {};
    const mv: Record<string, number | null> = {};
    let equity: number | null = cash;
    let gmv: number | null = 0;
    for (const a of Object.keys(positions).sort()) {
      const m = this.mark(a);
      marks[a] = m;
      const q = positions[a] as number;
      mv[a] = m ? round(q * m.price, 2) : null;
      if (m && equity !== null && gmv !== null) {
        equity += q * m.price;
        gmv += Math.abs(q) * m.price;
      } else if (q !== 0) {
        equity = null;
        gmv = null;
      }
    }
    return {
      as_of: now,
      opened: last !== undefined,
      positions,
      cash,
      marks,
      market_value: mv,
      equity: equity === null ? null : round(equity, 2),
      gross_market_value: gmv === null ? null : round(gmv, 2),
      margin_ratio: equity === null || gmv === null || gmv === 0 ? null : round(equity / gmv, 6),
      maintenance: this.maintenance(),
    };
  }

  /** PM orders placed since `since` (default: the last 24 h), with their status now */
  orders(since: number = this.now() - DAY_MS): PmOrder[] {
    const evs = this.events({ since });
    const fills = new Map<string, { t: number; price: number }>();
    const expired = new Set<string>();
    for (const e of evs) {
      if (e.kind === "fill") fills.set(e.p.order_id, { t: e.t, price: e.p.price });
      if (e.kind === "note" && e.p.subject === "Order expired" && typeof e.p.order_id === "string")
        expired.add(e.p.order_id);
    }
    const now = this.now();
    return evs.flatMap((e) => {
      if (e.kind !== "order") return [];
      const f = fills.get(e.p.order_id);
      const status: OrderStatus = f
        ? "filled"
        : expired.has(e.p.order_id) || now >= e.p.expires_at
          ? "expired"
          : "open";
      return [
        {
          order_id: e.p.order_id,
          placed_at: e.t,
          symbol: e.p.symbol,
          side: e.p.side,
          qty: e.p.qty,
          limit_price: e.p.limit_price,
          expires_at: e.p.expires_at,
          status,
          filled_at: f?.t ?? null,
          fill_price: f?.price ?? null,
        },
      ];
    });
  }

  /** every visible margin call, oldest first, with its treasury wire when visible */
  marginCalls(): MarginCallState[] {
    const wires = new Map<string, number>();
    for (const e of this.events({ kind: "note" }))
      if (e.kind === "note" && e.p.subject === "Treasury wire received" && typeof e.p.call_id === "string")
        wires.set(e.p.call_id, e.t);
    return this.events({ kind: "margin_call" }).map((e) => {
      const c = (e as MarginCallEvent).p;
      return {
        call_id: c.call_id,
        issued_at: e.t,
        ratio: c.ratio,
        maintenance: c.maintenance,
        equity: c.equity,
        gross_market_value: c.gross_market_value,
        required_amount: c.required_amount,
        deadline: c.deadline,
        wired_at: wires.get(c.call_id) ?? null,
      };
    });
  }
}
