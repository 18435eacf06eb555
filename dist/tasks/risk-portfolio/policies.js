import { DAY_MS, MINUTE_MS, startOfUtcDay } from "../../kernel/day.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import { AccountView } from "./agent-books.js";
import { universeOf, worldCloseDays } from "./daily-closes.js";
import { driveSteps, holdCashSteps, momentumSteps, oracleSteps } from "./policy-steps.js";
import { GET_ACCOUNT_TOOL } from "./tools.js";
const WAKE_MINUTE = 5;
function nextDailyWake(now) {
  const today = startOfUtcDay(now) + WAKE_MINUTE * MINUTE_MS;
  return today > now ? today : today + DAY_MS;
}
const DAILY_CRON = [`${WAKE_MINUTE} 0 * * *`];
const daily = { nextWake: nextDailyWake, cron: DAILY_CRON };
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool: no orders and no books, so every book is missing (risk_score 0).",
  async act() {
  },
  nextWake: () => null,
  cron: []
});
const holdCashPolicy = statelessPolicy({
  name: "hold-cash",
  description: "Files correct books every day (validated first) and never trades: the cash anchor (risk_score 0.5).",
  act: (api) => driveSteps(api, holdCashSteps()),
  ...daily
});
const momentumPolicy = statelessPolicy({
  name: "momentum-risk-parity",
  description: "At 00:05 UTC: files its own books (validated first), then holds signed inverse-volatility weights by 7-day momentum at 1\xD7 gross, rebalancing changes above 2% of equity, crossing zero in two legs.",
  act: (api) => driveSteps(api, momentumSteps()),
  ...daily
});
const oraclePolicy = {
  name: "oracle",
  description: "Knows the next close (reads the untouched world): 1.9\xD7 gross on each symbol's next move (tests only).",
  oracle: true,
  cron: DAILY_CRON,
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    let byDay = null;
    return {
      async act() {
        const a = await api.call(GET_ACCOUNT_TOOL, {});
        if (!a.ok) throw new Error(`get_account failed: ${a.error}`);
        if (!byDay) {
          const rules = AccountView.parse(a.value).rules;
          const u = universeOf(env.world.db, rules.venue, rules.universe, Number.MAX_SAFE_INTEGER);
          byDay = new Map(worldCloseDays(env.world.db, u, Number.MAX_SAFE_INTEGER).map((c) => [c.day, c.prices]));
        }
        const known = byDay;
        await driveSteps(
          api,
          oracleSteps(api.now(), (d) => known.get(d) ?? null)
        );
      },
      nextWake: nextDailyWake
    };
  }
};
const riskPortfolioPolicies = [silentPolicy, oraclePolicy, momentumPolicy, holdCashPolicy];
export {
  WAKE_MINUTE,
  holdCashPolicy,
  momentumPolicy,
  nextDailyWake,
  oraclePolicy,
  riskPortfolioPolicies,
  silentPolicy
};
//# sourceMappingURL=policies.js.map
