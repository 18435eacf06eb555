/** A claim as the notify tool accepted it: "a breakout in `direction` starts within W after `t`". */
export interface Claim {
  market: string;
  news_id: string;
  direction: "up" | "down";
  t: number;
  actor: string;
}

/**
 * The notify tool's memory of accepted claims (tool state of one run; a resumed run rebuilds it by
 * re-running the episode). A claim is *pending* for the tool from τ until τ + W, whatever happens
 * in the market: the tool never learns that a claim covered a breakout (that would reveal a
 * breakpoint before its prices are visible), so one pending claim per market means one claim per
 * market per window W.
 */
export class ClaimBook {
  private readonly claims: Claim[] = [];
  private readonly last = new Map<string, Claim>();

  constructor(readonly windowMs: number) {}

  /** the claim on `market` still inside its window at `now`, or null */
  pending(market: string, now: number): Claim | null {
    const c = this.last.get(market);
    return c && c.t + this.windowMs > now ? c : null;
  }

  add(c: Claim): void {
    this.claims.push(c);
    this.last.set(c.market, c);
  }

  /** every accepted claim, in acceptance order */
  all(): readonly Claim[] {
    return this.claims;
  }
}
