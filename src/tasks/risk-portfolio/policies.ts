import { DAY_MS, MINUTE_MS, startOfUtcDay } from "../../kernel/day.js";
import type { OracleEnv, PolicyApi, ReferencePolicy } from "../task.js";
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

const daily = { nextWake: nextDailyWake, cron: [`${WAKE_MINUTE} 0 * * *`] };

/** silent: no orders and no books (the floor: every book is missing, risk_score 0). */
export const silentPolicy: ReferencePolicy = {
  name: "silent",
  description: "Never calls a tool: no orders and no books, so every book is missing (risk_score 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
};

/** hold-cash: correct books, no trades (risk_score 0.5: PSR 0.5, no drawdown, no VaR day). */
export const holdCashPolicy: ReferencePolicy = {
  name: "hold-cash",
  description: "Files correct books every day (validated first) and never trades: the cash anchor (risk_score 0.5).",
  act: (api: PolicyApi) => driveSteps(api, holdCashSteps()),
  ...daily,
};

/** the honest heuristic (agent-visible tools only). */
export const momentumPolicy: ReferencePolicy = {
  name: "momentum-risk-parity",
  description:
    "At 00:05 UTC: files its own books (validated first), then holds signed inverse-volatility weights by 7-day " +
    "momentum at 1× gross, rebalancing changes above 2% of equity, crossing zero in two legs.",
  act: (api: PolicyApi) => driveSteps(api, momentumSteps()),
  ...daily,
};

/**
 * oracle (tests and calibration only): the heuristic's book-keeping plus perfect foresight of the
 * next close read from the untouched world (OracleEnv.world), at 1.9× gross.
 */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  description: "Knows the next close (reads the untouched world): 1.9× gross on each symbol's next move (tests only).",
  oracle: {
    async act(api: PolicyApi, env: OracleEnv) {
      const a = await api.call(GET_ACCOUNT_TOOL, {});
      if (!a.ok) throw new Error(`get_account failed: ${a.error}`);
      const rules = AccountView.parse(a.value).rules;
      const u = universeOf(env.world.db, rules.venue, rules.universe, Number.MAX_SAFE_INTEGER);
      const byDay = new Map(worldCloseDays(env.world.db, u, Number.MAX_SAFE_INTEGER).map((c) => [c.day, c.prices]));
      await driveSteps(
        api,
        oracleSteps(api.now(), (d) => byDay.get(d) ?? null),
      );
    },
  },
  ...daily,
};

export const riskPortfolioPolicies: ReferencePolicy[] = [silentPolicy, oraclePolicy, momentumPolicy, holdCashPolicy];
