import { DAY_MS, startOfUtcDay } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { QuestionRow } from "../../world/types.js";
import type { AnchorForecasts } from "./anchor.js";
import { checkOutcomes } from "./forecast-args.js";
import type { OpenForecastParams } from "./params.js";
import type { ForecastEntry } from "./run-state.js";

/**
 * The last instant of the frozen news corpus (`news: frozen`): the end of sim_start's UTC day
 * (day 0). Frozen news tools see the world's news as it was visible then, at every later time.
 */
export function frozenNewsCut(simStart: number): number {
  return startOfUtcDay(simStart) + DAY_MS - 1;
}

/**
 * A question's release under `ceiling`: one day before its (scheduled, agent-visible) resolve
 * time, never before its open date. Its active days start there, so its first scored day is the
 * day before it resolves.
 */
export function ceilingRelease(q: Pick<QuestionRow, "open" | "resolve">): number {
  return Math.max(q.open, q.resolve - DAY_MS);
}

/** A question row as the task presents it: under `ceiling` its `open` is its ceiling release. */
export function presentedQuestion<Q extends Pick<QuestionRow, "open" | "resolve">>(q: Q, ceiling: boolean): Q {
  return ceiling ? { ...q, open: ceilingRelease(q) } : q;
}

/**
 * The view open-forecast's tools, recap, state and observations read: the run's as-of view with
 * the ablations applied. `news: frozen`: every news accessor is the view capped at
 * `frozenNewsCut` (the bound inside each query, like any as-of view). `ceiling`: questions carry
 * their ceiling release as `open`, so every tool releases, lists and accepts them from then on.
 * With the defaults it is the run's view itself.
 */
export function ablationView(view: AsOfView, p: OpenForecastParams, simStart: number): AsOfView {
  if (p.news === "live" && !p.ceiling) return view;
  const news = p.news === "frozen" ? view.capped(frozenNewsCut(simStart)).news : view.news;
  const questions: AsOfView["questions"] = p.ceiling
    ? {
        list: (o) => view.questions.list(o).map((q) => presentedQuestion(q, true)),
        get: (id) => presentedQuestion(view.questions.get(id), true),
        resolutions: (o) => view.questions.resolutions(o),
      }
    : view.questions;
  const out: AsOfView = {
    now: () => view.now(),
    capped: (cut) => ablationView(view.capped(cut), p, simStart),
    news,
    markets: view.markets,
    reddit: view.reddit,
    exchanges: view.exchanges,
    filings: view.filings,
    questions,
    broker: view.broker,
    events: view.events,
  };
  return out;
}

/** Is a question accepting forecasts at `t` (released, visible, before resolve, answer not public)? */
export function openAt(
  q: Pick<QuestionRow, "open" | "resolve" | "visible_at">,
  publicAt: number | null,
  t: number,
): boolean {
  return q.open <= t && q.visible_at <= t && t < q.resolve && (publicAt === null || t < publicAt);
}

/**
 * The anchor's injected forecasts (`anchor_from`): each day-0 forecast of the anchor run on a
 * question open at this run's sim_start (as presented: `ceiling` applies) becomes its standing
 * forecast from sim_start, when it passes this run's forecast rules. Shared by the tools (the
 * run's book) and the scorer, so both hold the same forecasts.
 */
export function anchorEntries(
  anchor: AnchorForecasts,
  questions: readonly { q: Pick<QuestionRow, "id" | "open" | "resolve" | "visible_at">; publicAt: number | null }[],
  p: OpenForecastParams,
  simStart: number,
): Map<string, ForecastEntry[]> {
  const out = new Map<string, ForecastEntry[]>();
  for (const { q, publicAt } of questions) {
    const f = anchor.forecasts.get(q.id);
    if (f === undefined || !openAt(q, publicAt, simStart)) continue;
    const checked = checkOutcomes(f, { maxOutcomes: p.max_outcomes, maxChars: p.max_answer_chars });
    if (checked.ok) out.set(q.id, [{ at: simStart, outcomes: checked.outcomes }]);
  }
  return out;
}
