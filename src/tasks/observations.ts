import type { AsOfView } from "../world/as-of-view.js";
import type { Observation } from "./task.js";

/**
 * Building blocks of `TaskRun.observations(since, now)` shared by the news and market tasks. Each
 * reads through the run's as-of view, so nothing with visible_at after the view's now can appear,
 * and keeps only what became visible in (since, now].
 */

/** articles that became visible in (since, now]: kind `news`, summary = title */
export function newsObservations(view: AsOfView, since: number, now: number): Observation[] {
  return view.news.arrivals(since, now).map((n) => ({ t: n.visible_at, kind: "news", id: n.id, summary: n.title }));
}

/** markets (questions) that became visible in (since, now], filtered by `keep`: kind `market`, summary = question */
export function marketObservations(
  view: AsOfView,
  since: number,
  now: number,
  keep: (id: string) => boolean = () => true,
): Observation[] {
  return view.markets
    .list()
    .filter((m) => m.visible_at > since && m.visible_at <= now && keep(m.id))
    .map((m) => ({ t: m.visible_at, kind: "market", id: m.id, summary: m.question }));
}

/** market resolutions that became visible in (since, now]: kind `market_resolution`, summary = result */
export function resolutionObservations(
  view: AsOfView,
  since: number,
  now: number,
  keep: (id: string) => boolean = () => true,
): Observation[] {
  return view.markets
    .resolutions()
    .filter((r) => r.visible_at > since && r.visible_at <= now && keep(r.market))
    .map((r) => ({ t: r.visible_at, kind: "market_resolution", id: r.market, summary: `resolved ${r.result}` }));
}

/** merges observation lists into time order (ties: kind, then id), the order `observations` promises */
export function inTimeOrder(...lists: Observation[][]): Observation[] {
  return lists
    .flat()
    .sort((a, b) => a.t - b.t || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
