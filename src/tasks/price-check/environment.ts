import type Database from "better-sqlite3";
import type { AsOfView } from "../../world/as-of-view.js";
import { WorldCandles } from "./candle-series.js";
import { VENUE_TABLE } from "./incident-table.js";
import { drawIncidentTrace, type Incident, IncidentIndex } from "./incidents.js";
import type { PriceCheckParams } from "./params.js";
import { VenueApi } from "./venue-api.js";
import { type PriceCheckSetup, resolveSetup, setupAsOf } from "./world-setup.js";

/** The environment side of one price-check run: setup, drawn incident trace, venue replay. */
export interface PriceCheckEnv {
  params: PriceCheckParams;
  setup: PriceCheckSetup;
  /** what of the setup is visible at `t` (every agent-facing list: instruction, docs, venue symbols, rejections) */
  setupAt(t: number): PriceCheckSetup;
  /** environment-side state: never shown to the agent */
  trace: Incident[];
  api: VenueApi;
  sim_start: number;
  sim_end: number;
}

export interface PriceCheckEnvInput {
  params: PriceCheckParams;
  /** the agent's as-of view (the replay serves only what it returns) */
  view: AsOfView;
  /** scorer/environment-side world access (only the candle series list is read here) */
  world: { db: Database.Database };
  env_seed: number;
  sim_start: number;
  sim_end: number;
}

/** a shared setup is read-only: its lists are frozen, so a caller that edits one fails loudly */
function frozenSetup(s: PriceCheckSetup): PriceCheckSetup {
  for (const l of Object.values(s.truthVenues)) Object.freeze(l);
  for (const m of Object.values(s.baseInterval)) Object.freeze(m);
  Object.freeze(s.symbols);
  Object.freeze(s.venues);
  Object.freeze(s.truthVenues);
  Object.freeze(s.baseInterval);
  return Object.freeze(s);
}

/**
 * Builds a run's environment. The incident trace is drawn over [sim_start, sim_end) from
 * (VENUE_TABLE, env_seed, window, served venues with their symbols); `params.incidents = false`
 * gives an empty trace (rate limits and bans still apply: they are the venues' rules, not incidents).
 */
export function createPriceCheckEnv(i: PriceCheckEnvInput): PriceCheckEnv {
  const series = new WorldCandles(i.world.db).series();
  const setup = resolveSetup(series, i.params);
  // the visible part changes only when a series' first candle becomes visible: one setup per set of visible series
  const byVisible = new Map<string, PriceCheckSetup>();
  const setupAt = (t: number) => {
    let k = "";
    for (const x of series) k += x.visible_at <= t ? "1" : "0";
    let v = byVisible.get(k);
    if (!v) {
      v = frozenSetup(setupAsOf(setup, series, t));
      byVisible.set(k, v);
    }
    return v;
  };
  const trace = i.params.incidents
    ? drawIncidentTrace(
        VENUE_TABLE,
        i.env_seed,
        { start: i.sim_start, end: i.sim_end },
        setup.venues.map((venue) => ({ venue, symbols: Object.keys(setup.baseInterval[venue] ?? {}) })),
      )
    : [];
  const api = new VenueApi({
    view: i.view,
    setup,
    table: VENUE_TABLE,
    incidents: i.params.incidents ? new IncidentIndex(trace) : null,
    envSeed: i.env_seed,
    setupAt,
  });
  return { params: i.params, setup, setupAt, trace, api, sim_start: i.sim_start, sim_end: i.sim_end };
}
