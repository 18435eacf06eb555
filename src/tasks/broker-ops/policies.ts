import { MINUTE_MS } from "../../common/time.js";
import { runSteps } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { ReferencePolicy } from "../task.js";
import { actOn, type Credentials, type DeskDuty, newDeskState, pollerWake, watchOnlyWake } from "./desk-steps.js";
import { dutyRoster } from "./duties.js";
import { BrokerOpsParams, DEFAULT_PASSWORD, DEFAULT_USERNAME } from "./params.js";

export const POLL_MS = 25 * MINUTE_MS;
const ORACLE_MS = 5 * MINUTE_MS;

/**
 * The credentials the honest policies use: the defaults the instruction renders for the synthetic
 * world (a scripted policy gets no instruction text; with other `username`/`password` params it
 * cannot sign in, like an agent that ignores its instruction).
 */
export const DEFAULT_CREDENTIALS: Credentials = { username: DEFAULT_USERNAME, password: DEFAULT_PASSWORD };

/** the next multiple of `step` strictly after `now` (epoch-aligned: 25 min from 00:00 UTC of 1970) */
export const nextMultiple = (now: number, step: number) => (Math.floor(now / step) + 1) * step;

export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every duty is missed (routine_score 0).",
  async act() {},
  nextWake: () => null,
});

/**
 * poller-25m (honest heuristic, agent-visible tools only): every 25 minutes it reads the events API;
 * for each fill of the last 2 h and margin call of the last 4 h it has not handled, it signs in when
 * needed (password, then the code from the mailbox) and places a protective stop (opposite side,
 * the fill's quantity, trigger 2% beyond the mark) or a funding instruction of the required amount,
 * through the browser (browser mode) or the site's API tools (API mode).
 */
export const pollerPolicy: ReferencePolicy = {
  name: "poller-25m",
  description:
    "Every 25 min: reads the events API, signs in (password + mailed code) when a fill or margin call is open, places protective stops and funding instructions.",
  cron: ["*/25 * * * *"],
  start(api) {
    // per run: the desk's memory (session, handled duties)
    const state = newDeskState();
    return {
      act: () => runSteps(api, pollerWake(state, DEFAULT_CREDENTIALS, api.now())),
      nextWake: (now) => nextMultiple(now, POLL_MS),
    };
  },
};

/** never-signs-in: polls the events API and the mailbox every 25 minutes but never signs in (routine_score 0). */
export const neverSignsInPolicy: ReferencePolicy = statelessPolicy({
  name: "never-signs-in",
  description:
    "Reads the events API and the mailbox every 25 min but never signs in to the broker site (routine_score 0).",
  act: (api) => runSteps(api, watchOnlyWake(api.now())),
  nextWake: (now) => nextMultiple(now, POLL_MS),
  cron: ["*/25 * * * *"],
});

/**
 * oracle (tests and calibration only): wakes every 5 minutes, reads the duty roster from the
 * untouched world and acts on every duty whose event has happened and whose deadline has not
 * passed, through the same tools as the poller. The book's events lie on the 5-minute grid, so it
 * acts at the event's own instant.
 */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  description:
    "Acts on every fill and margin call at its own instant, reading the duty roster from the world (tests only).",
  oracle: true,
  cron: ["*/5 * * * *"],
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    const p = BrokerOpsParams.parse(env.params ?? {});
    const state = newDeskState();
    return {
      act() {
        const now = api.now();
        const due: DeskDuty[] = dutyRoster(env.world, p, now - p.funding_window_ms - p.stop_window_ms, now + 1)
          .filter((d) => d.t <= now && now < d.deadline)
          .map((d) =>
            d.kind === "stop"
              ? { kind: "stop", id: d.fill.id, symbol: d.fill.p.symbol, side: d.fill.p.side, qty: d.fill.p.qty }
              : {
                  kind: "funding",
                  id: d.call.id,
                  call_id: d.call.p.call_id,
                  required_amount: d.call.p.required_amount,
                },
          );
        return runSteps(api, actOn(state, due, { username: p.username, password: p.password }, now));
      },
      nextWake: (now) => nextMultiple(now, ORACLE_MS),
    };
  },
};

export const brokerOpsPolicies: ReferencePolicy[] = [silentPolicy, oraclePolicy, pollerPolicy, neverSignsInPolicy];
