import { WorldCandles } from "./candle-series.js";
import { VENUE_TABLE } from "./incident-table.js";
import { drawIncidentTrace, IncidentIndex } from "./incidents.js";
import { VenueApi } from "./venue-api.js";
import { resolveSetup } from "./world-setup.js";
function createPriceCheckEnv(i) {
  const setup = resolveSetup(new WorldCandles(i.world.db).keys(), i.params);
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
    envSeed: i.env_seed
  });
  return { params: i.params, setup, trace, api, sim_start: i.sim_start, sim_end: i.sim_end };
}
export {
  createPriceCheckEnv
};
//# sourceMappingURL=environment.js.map
