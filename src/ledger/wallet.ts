import type { LedgerEvent } from "./events.js";

export interface WalletLimits {
  budget_usd: number;
  /** per-domain caps, e.g. { llm: 20 } */
  domain_caps: Record<string, number>;
}

/**
 * Spend derived from the ledger (DESIGN invariant 3): `apply` every event in order; nothing else
 * changes the balance. A priced call is allowed while the wallet (and its domain cap) is not yet
 * spent, so the last call may overshoot by at most its own cost.
 */
export class Wallet {
  private total = 0;
  private readonly byDomain = new Map<string, number>();
  private readonly byType = new Map<string, number>();
  private readonly byEntry = new Map<string, number>();

  constructor(readonly limits: WalletLimits) {}

  apply(e: LedgerEvent): void {
    switch (e.type) {
      case "tool_call":
        if (e.cost_usd > 0) this.book(e.domain, `tool:${e.tool}`, e.cost_usd);
        break;
      case "llm_call":
        if (e.cost_usd > 0) this.book("llm", "llm", e.cost_usd);
        break;
      case "prune":
        // a Best-of-N branch that stopped here: its spend up to here is the run's too
        for (const b of e.branches)
          if (!b.kept) for (const x of b.spend) if (x.usd > 0) this.book(x.domain, x.type, x.usd);
        break;
      case "run_start":
      case "wake":
      case "wait":
      case "commitment":
      case "outcome":
      case "daily_brief":
      case "llm_rejected":
      case "note":
      case "run_end":
        break;
      default: {
        const never: never = e;
        throw new Error(`unhandled ledger event ${JSON.stringify(never)}`);
      }
    }
  }

  private book(domain: string, type: string, usd: number): void {
    const key = `${domain}\u0000${type}`;
    this.byEntry.set(key, (this.byEntry.get(key) ?? 0) + usd);
    this.total += usd;
    this.byDomain.set(domain, (this.byDomain.get(domain) ?? 0) + usd);
    this.byType.set(type, (this.byType.get(type) ?? 0) + usd);
  }

  get spent(): number {
    return this.total;
  }

  spentIn(domain: string): number {
    return this.byDomain.get(domain) ?? 0;
  }

  spendByType(): Record<string, number> {
    return Object.fromEntries([...this.byType.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  spendByDomain(): Record<string, number> {
    return Object.fromEntries([...this.byDomain.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** spend by (domain, type) pair, sorted: what another wallet books to carry this one's spend (a Best-of-N prune) */
  spendEntries(): { domain: string; type: string; usd: number }[] {
    return [...this.byEntry.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, usd]) => {
        const [domain = "", type = ""] = k.split("\u0000");
        return { domain, type, usd };
      });
  }

  /** null when a call in `domain` may be made now, else the reason it is refused. */
  refusal(domain: string): string | null {
    if (this.total >= this.limits.budget_usd)
      return `budget exhausted: spent $${this.total.toFixed(4)} of $${this.limits.budget_usd}`;
    const cap = this.limits.domain_caps[domain];
    if (cap !== undefined && this.spentIn(domain) >= cap)
      return `${domain} budget exhausted: spent $${this.spentIn(domain).toFixed(4)} of $${cap}`;
    return null;
  }

  /** How far spend went past the budget (0 when within). */
  get overshoot(): number {
    return Math.max(0, this.total - this.limits.budget_usd);
  }
}
