import { z } from "zod";
import type { Forecast } from "./brier.js";

/** A forecast as the agent sends it: outcome label → probability (checked by `canonicalForecast`). */
export const ForecastArg = z
  .record(z.string().min(1).max(200), z.number())
  .describe('outcome label → probability in [0, 1], e.g. {"Yes": 0.7, "No": 0.3}; Σp ≤ 1 (unassigned mass is allowed)');

const norm = (s: string) => s.trim().toLowerCase();

/**
 * Checks a forecast against a question's outcomes and returns it keyed by the canonical labels (in
 * the question's outcome order), or the reason it is rejected: no outcome named, a label that is
 * not an outcome (labels match exactly, else case-insensitively after trimming), the same outcome
 * named twice, a probability outside [0, 1], or Σp > 1 (+ `tolerance`). Σp < 1 is allowed.
 */
export function canonicalForecast(
  raw: Readonly<Record<string, number>>,
  outcomes: readonly string[],
  tolerance: number,
): { ok: true; forecast: Forecast; sum: number } | { ok: false; error: string } {
  const entries = Object.entries(raw);
  const valid = outcomes.map((o) => JSON.stringify(o)).join(", ");
  if (entries.length === 0) return { ok: false, error: `the forecast names no outcome; outcomes are ${valid}` };
  const byLabel = new Map<string, number>();
  for (const [label, p] of entries) {
    const o = outcomes.includes(label) ? label : outcomes.find((x) => norm(x) === norm(label));
    if (o === undefined) return { ok: false, error: `unknown outcome ${JSON.stringify(label)}; outcomes are ${valid}` };
    if (byLabel.has(o)) return { ok: false, error: `outcome ${JSON.stringify(o)} is named twice` };
    if (!Number.isFinite(p) || p < 0 || p > 1)
      return { ok: false, error: `probability of ${JSON.stringify(o)} is ${p}: each probability must be in [0, 1]` };
    byLabel.set(o, p);
  }
  let sum = 0;
  for (const p of byLabel.values()) sum += p;
  if (sum > 1 + tolerance)
    return { ok: false, error: `the probabilities sum to ${sum} > 1; they must sum to at most 1 (less is allowed)` };
  const forecast: Record<string, number> = {};
  for (const o of outcomes) if (byLabel.has(o)) forecast[o] = byLabel.get(o)!;
  return { ok: true, forecast, sum };
}
