import { WorldCandles } from "./candle-series.js";
import { VENUE_TABLE } from "./incident-table.js";
import { drawIncidentTrace, IncidentIndex } from "./incidents.js";
import { VenueApi } from "./venue-api.js";
import { resolveSetup, setupAsOf } from "./world-setup.js";
function createPriceCheckEnv(i) {
  const series = new WorldCandles(i.world.db).series();
  const setup = resolveSetup(series, i.params);
  const setupAt = (t) => setupAsOf(setup, series, t);
  const trace = i.params.incidents ? drawIncidentTrace(
    VENUE_TABLE,
    i.env_seed,
    { start: i.sim_start, end: i.sim_end },
    setup.venues.map((venue) => ({ venue, symbols: Object.keys(setup.baseInterval[venue] ?? {}) }))
  ) : [];
  const api = new VenueApi({
    view: i.view,
    setup,
    table: VENUE_TABLE,
    incidents: i.params.incidents ? new IncidentIndex(trace) : null,
    envSeed: i.env_seed,
    setupAt
  });
  return { params: i.params, setup, setupAt, trace, api, sim_start: i.sim_start, sim_end: i.sim_end };
}
export {
  createPriceCheckEnv
};
//# sourceMappingURL=environment.js.map
