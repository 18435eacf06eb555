import { isoInstant } from "../../kernel/day.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import {
  drive,
  httpGetAll,
  newClientState,
  nextSweep,
  perfectClientSweep,
  SWEEP_CRON,
  saveRecord
} from "./client-steps.js";
import { FilingDuties } from "./filing-duties.js";
import { FilingTrackerParams } from "./params.js";
import { SEC_HOST } from "./web/sec-host.js";
function goldRecord(d) {
  const base = { ticker: d.ticker, accession: d.accession, form: d.form, accepted_at: isoInstant(d.accepted_at) };
  if (d.form === "8-K") return base;
  return {
    ...base,
    fy: d.gold.fy,
    fp: d.gold.fp,
    revenue: d.gold.revenue,
    eps_diluted: d.gold.eps_diluted
  };
}
function dutiesOf(env, from, to) {
  const p = FilingTrackerParams.parse(env.params ?? {});
  return new FilingDuties(env.world.db, p).duties(from, to);
}
const RECENT_MS = 10 * 864e5;
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every filing is a miss (filing_score 0).",
  async act() {
  },
  nextWake: () => null,
  cron: []
});
const perfectClientPolicy = {
  name: "perfect-client",
  description: "Sweeps at 09:29 New York time on trading days and 22:05 on weekdays: reads the blotter and each company's SEC submissions, then saves every due filing with figures from companyconcept.",
  cron: [...SWEEP_CRON],
  start(api) {
    const state = newClientState();
    return { act: () => drive(api, perfectClientSweep(api.now(), state)), nextWake: nextSweep };
  }
};
const oraclePolicy = {
  name: "oracle",
  description: "Saves each due filing's gold row (read from the untouched world) at the sweeps, after a SEC read.",
  oracle: true,
  cron: [...SWEEP_CRON],
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    const state = newClientState();
    return {
      act() {
        const now = api.now();
        const due = dutiesOf(env, now - RECENT_MS, now + 1).filter((d) => d.deadline > now && !state.saved.has(d.key));
        function* steps() {
          for (const d of due) {
            yield* httpGetAll(SEC_HOST, `/submissions/CIK${d.cik}.json`);
            yield* saveRecord(state, goldRecord(d));
          }
        }
        return drive(api, steps());
      },
      nextWake: nextSweep
    };
  }
};
const prematureClientPolicy = {
  name: "premature-client",
  description: "Saves each filing's gold row at the sweep before its acceptance (every duty premature).",
  oracle: true,
  cron: [...SWEEP_CRON],
  start(api, oracle) {
    const env = requireOracle("premature-client", oracle);
    const state = newClientState();
    return {
      act() {
        const now = api.now();
        const early = dutiesOf(env, now + 1, nextSweep(now) + 1);
        function* steps() {
          for (const d of early) {
            yield* httpGetAll(SEC_HOST, `/submissions/CIK${d.cik}.json`);
            yield* saveRecord(state, goldRecord(d));
          }
        }
        return drive(api, steps());
      },
      nextWake: nextSweep
    };
  }
};
const filingTrackerPolicies = [
  silentPolicy,
  perfectClientPolicy,
  oraclePolicy,
  prematureClientPolicy
];
export {
  filingTrackerPolicies,
  goldRecord,
  oraclePolicy,
  perfectClientPolicy,
  prematureClientPolicy,
  silentPolicy
};
//# sourceMappingURL=policies.js.map
