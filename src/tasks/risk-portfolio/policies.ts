import { DAY_MS, MINUTE_MS, startOfUtcDay } from "../../common/time.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import { AccountView } from "./agent-books.js";
import { universeOf, worldCloseDays } from "./daily-closes.js";
import { driveSteps, holdCashSteps, momentumSteps, oracleSteps } from "./policy-steps.js";
import { GET_ACCOUNT_TOOL } from "./tools.js";

/** the policies' daily wake: 00:05 UTC, just after the close */
export const WAKE_MINUTE = 5;

/** the first 00:05 UTC strictly after `now` */
export function nextDailyWake(now: number): number {
  const today = startOfUtcDay(now) + WAKE_MINUTE * MINUTE_MS;
  return today > now ? today : today + DAY_MS;
}

const DAILY_CRON = [`${WAKE_MINUTE} 0 * * *`];
const daily = { nextWake: nextDailyWake, cron: DAILY_CRON };

/** silent: no orders and no books (the floor: every book is missing, risk_score 0). */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool: no orders and no books, so every book is missing (risk_score 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/** hold-cash: correct books, no trades (risk_score 0.5: PSR 0.5, no drawdown, no VaR day). */
export const holdCashPolicy: ReferencePolicy = statelessPolicy({
  name: "hold-cash",
  description: "Files correct books every day (validated first) and never trades: the cash anchor (risk_score 0.5).",
  act: (api: PolicyApi) => driveSteps(api, holdCashSteps()),
  ...daily,
});

/** the honest heuristic (agent-visible tools only). */
export const momentumPolicy: ReferencePolicy = statelessPolicy({
  name: "momentum-risk-parity",
  description:
    "At 00:05 UTC: files its own books (validated first), then holds signed inverse-volatility weights by 7-day " +
    "momentum at 1× gross, rebalancing changes above 2% of equity, crossing zero in two legs.",
  act: (api: PolicyApi) => driveSteps(api, momentumSteps()),
  ...daily,
});

/**
 * oracle (tests and calibration only): the heuristic's book-keeping plus perfect foresight of the
 * next close read from the untouched world (OracleEnv.world), at 1.9× gross.
 */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  description: "Knows the next close (reads the untouched world): 1.9× gross on each symbol's next move (tests only).",
  oracle: true,
  cron: DAILY_CRON,
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    // the world's closes by day, read once per run (the universe comes from get_account, called every wake as the tools expect)
    let byDay: Map<number, Record<string, number>> | null = null;
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
          oracleSteps(api.now(), (d) => known.get(d) ?? null),
        );
      },
      nextWake: nextDailyWake,
    };
  },
};

export const riskPortfolioPolicies: ReferencePolicy[] = [silentPolicy, oraclePolicy, momentumPolicy, holdCashPolicy];
