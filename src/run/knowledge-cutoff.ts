import { isoDay } from "../common/time.js";
import type { PriceTable } from "../models/price-table.js";

/**
 * Knowledge-cutoff guard (data.md): worlds for LLM evaluation should start after the evaluated
 * model's knowledge cutoff. The price table's `cutoff` (YYYY-MM or YYYY-MM-DD) names the last month
 * or day the model may know, so the cutoff ends at the next month's (day's) 00:00 UTC; an episode
 * starting before that instant may replay facts the model learned in training.
 */

/** The first instant after a `cutoff` period: `2025-01` → 2025-02-01T00:00Z, `2024-06-01` → 2024-06-02T00:00Z. */
export function cutoffEnd(cutoff: string): number {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(cutoff);
  if (!m) throw new RangeError(`not a knowledge cutoff (YYYY-MM or YYYY-MM-DD): "${cutoff}"`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, m[3] === undefined ? null : Number(m[3])];
  return d === null ? Date.UTC(y, mo + 1, 1) : Date.UTC(y, mo, d + 1);
}

export interface CutoffCheck {
  /** true: the episode starts before the cutoff ends; false: after it (or no model); null: the cutoff is unknown */
  before: boolean | null;
  /** the model's cutoff as listed, when known */
  cutoff: string | null;
}

/** Whether an LLM agent billed as `priceKey` meets an episode starting at `simStart` before its knowledge cutoff. */
export function checkKnowledgeCutoff(
  agent: { kind: "scripted" | "external" } | { kind: "model"; priceKey: string; prices: PriceTable },
  simStart: number,
): CutoffCheck {
  // scripted policies know nothing; an outside app's model is metered elsewhere (unknown here)
  if (agent.kind === "scripted") return { before: false, cutoff: null };
  if (agent.kind !== "model") return { before: null, cutoff: null };
  const cutoff = agent.prices.lookup(agent.priceKey)?.cutoff ?? null;
  if (cutoff === null) return { before: null, cutoff: null };
  return { before: simStart < cutoffEnd(cutoff), cutoff };
}

/** The warning line for a run whose episode starts before its model's cutoff (null when there is nothing to say). */
export function knowledgeCutoffWarning(
  agent: { kind: "scripted" | "external" } | { kind: "model"; name: string; priceKey: string; prices: PriceTable },
  simStart: number,
): string | null {
  if (agent.kind !== "model") return null;
  const c = checkKnowledgeCutoff(agent, simStart);
  if (c.before === null)
    return `note: no knowledge cutoff is listed for ${agent.priceKey}; cannot check that the episode (from ${isoDay(simStart)}) starts after it`;
  if (!c.before) return null;
  return (
    `warning: the episode starts ${isoDay(simStart)}, before the knowledge cutoff of ${agent.name} (${c.cutoff}): ` +
    "the model may know how it ends (results flag before_knowledge_cutoff)"
  );
}
