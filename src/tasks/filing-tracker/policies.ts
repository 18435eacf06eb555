import { isoInstant } from "../../common/time.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { OracleEnv, ReferencePolicy } from "../task.js";
import {
  drive,
  httpGetAll,
  newClientState,
  nextSweep,
  perfectClientSweep,
  type Steps,
  SWEEP_CRON,
  saveRecord,
} from "./client-steps.js";
import { FilingDuties, type FilingDuty } from "./filing-duties.js";
import type { FilingRecordInput } from "./filing-record.js";
import { FilingTrackerParams } from "./params.js";
import { SEC_HOST } from "./web/sec-host.js";

/** The gold row of a duty (what a perfect record says). */
export function goldRecord(d: FilingDuty): FilingRecordInput {
  const base = { ticker: d.ticker, accession: d.accession, form: d.form, accepted_at: isoInstant(d.accepted_at) };
  if (d.form === "8-K") return base;
  return {
    ...base,
    fy: d.gold.fy,
    fp: d.gold.fp as FilingRecordInput["fp"],
    revenue: d.gold.revenue,
    eps_diluted: d.gold.eps_diluted,
  };
}

/** duties of filings accepted in [from, to) */
function dutiesOf(env: OracleEnv, from: number, to: number): FilingDuty[] {
  const p = FilingTrackerParams.parse(env.params ?? {});
  return new FilingDuties(env.world.db, p).duties(from, to);
}

const RECENT_MS = 10 * 86_400_000;

/** silent: never acts (every duty is a miss). */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every filing is a miss (filing_score 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/**
 * perfect-client (honest, tools only): at every sweep (09:29 New York time on trading days, 22:05 on
 * weekdays) it reads the blotter and each company's submissions with http_get, and for every
 * duty-kind filing accepted by now, before its deadline, held at acceptance and not yet saved, it
 * reads the period's revenue and diluted EPS from companyconcept and saves the row (record_filing
 * in API mode, the portal form in browser mode).
 */
export const perfectClientPolicy: ReferencePolicy = {
  name: "perfect-client",
  description:
    "Sweeps at 09:29 New York time on trading days and 22:05 on weekdays: reads the blotter and each company's SEC submissions, then saves every due filing with figures from companyconcept.",
  cron: [...SWEEP_CRON],
  start(api) {
    // per run: the rows it has saved
    const state = newClientState();
    return { act: () => drive(api, perfectClientSweep(api.now(), state)), nextWake: nextSweep };
  },
};

/**
 * oracle (tests and calibration only): at the same sweeps, saves the gold row of every duty
 * accepted by now and not yet due, after reading the company's submissions (the evidence read).
 */
export const oraclePolicy: ReferencePolicy = {
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
        function* steps(): Steps {
          for (const d of due) {
            yield* httpGetAll(SEC_HOST, `/submissions/CIK${d.cik}.json`);
            yield* saveRecord(state, goldRecord(d));
          }
        }
        return drive(api, steps());
      },
      nextWake: nextSweep,
    };
  },
};

/**
 * premature-client (reads truth: tests and calibration only): at each sweep it saves the gold row
 * of every duty accepted before the next sweep, i.e. before its acceptance (anchor: 0.0, every
 * duty `premature`). Pinned under the sleep trigger, whose wakes are exactly the sweeps.
 */
export const prematureClientPolicy: ReferencePolicy = {
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
        function* steps(): Steps {
          for (const d of early) {
            yield* httpGetAll(SEC_HOST, `/submissions/CIK${d.cik}.json`);
            yield* saveRecord(state, goldRecord(d));
          }
        }
        return drive(api, steps());
      },
      nextWake: nextSweep,
    };
  },
};

export const filingTrackerPolicies: ReferencePolicy[] = [
  silentPolicy,
  perfectClientPolicy,
  oraclePolicy,
  prematureClientPolicy,
];
