import { MINUTE_MS } from "../../kernel/day.js";
import { runSteps } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import { actOn, newDeskState, pollerWake, watchOnlyWake } from "./desk-steps.js";
import { dutyRoster } from "./duties.js";
import { BrokerOpsParams, DEFAULT_PASSWORD, DEFAULT_USERNAME } from "./params.js";
const POLL_MS = 25 * MINUTE_MS;
const ORACLE_MS = 5 * MINUTE_MS;
const DEFAULT_CREDENTIALS = { username: DEFAULT_USERNAME, password: DEFAULT_PASSWORD };
const nextMultiple = (now, step) => (Math.floor(now / step) + 1) * step;
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every duty is missed (routine_score 0).",
  async act() {
  },
  nextWake: () => null
});
const pollerPolicy = {
  name: "poller-25m",
  description: "Every 25 min: reads the events API, signs in (password + mailed code) when a fill or margin call is open, places protective stops and funding instructions.",
  cron: ["*/25 * * * *"],
  start(api) {
    const state = newDeskState();
    return {
      act: () => runSteps(api, pollerWake(state, DEFAULT_CREDENTIALS, api.now())),
      nextWake: (now) => nextMultiple(now, POLL_MS)
    };
  }
};
const neverSignsInPolicy = statelessPolicy({
  name: "never-signs-in",
  description: "Reads the events API and the mailbox every 25 min but never signs in to the broker site (routine_score 0).",
  act: (api) => runSteps(api, watchOnlyWake(api.now())),
  nextWake: (now) => nextMultiple(now, POLL_MS),
  cron: ["*/25 * * * *"]
});
const oraclePolicy = {
  name: "oracle",
  description: "Acts on every fill and margin call at its own instant, reading the duty roster from the world (tests only).",
  oracle: true,
  cron: ["*/5 * * * *"],
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    const p = BrokerOpsParams.parse(env.params ?? {});
    const state = newDeskState();
    return {
      act() {
        const now = api.now();
        const due = dutyRoster(env.world, p, now - p.funding_window_ms - p.stop_window_ms, now + 1).filter((d) => d.t <= now && now < d.deadline).map(
          (d) => d.kind === "stop" ? { kind: "stop", id: d.fill.id, symbol: d.fill.p.symbol, side: d.fill.p.side, qty: d.fill.p.qty } : {
            kind: "funding",
            id: d.call.id,
            call_id: d.call.p.call_id,
            required_amount: d.call.p.required_amount
          }
        );
        return runSteps(api, actOn(state, due, { username: p.username, password: p.password }, now));
      },
      nextWake: (now) => nextMultiple(now, ORACLE_MS)
    };
  }
};
const brokerOpsPolicies = [silentPolicy, oraclePolicy, pollerPolicy, neverSignsInPolicy];
export {
  DEFAULT_CREDENTIALS,
  POLL_MS,
  brokerOpsPolicies,
  neverSignsInPolicy,
  nextMultiple,
  oraclePolicy,
  pollerPolicy,
  silentPolicy
};
//# sourceMappingURL=policies.js.map
