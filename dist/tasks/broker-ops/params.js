import { z } from "zod";
import { HOUR_MS, MINUTE_MS } from "../../kernel/day.js";
const DEFAULT_USERNAME = "ops-desk";
const DEFAULT_PASSWORD = "Margin-Desk-2026";
const MaintenanceStep = z.object({ from_day: z.number().int().positive(), ratio: z.number().positive().max(1) }).strict();
const BrokerOpsParams = z.object({
  /** the ops account's sign-in name (rendered into the instruction) */
  username: z.string().min(1).max(64).default(DEFAULT_USERNAME),
  /** the ops account's password (rendered into the instruction, redacted from request logs) */
  password: z.string().min(8).max(128).default(DEFAULT_PASSWORD),
  /** how the agent reaches the broker site: its browser, or the site's API tools */
  site_mode: z.enum(["browser", "api"]).default("browser"),
  /** USD per http_get call */
  http_get_usd: z.number().nonnegative().default(0),
  /** USD per acting browser call (navigate, click, fill, select, submit) */
  browser_call_usd: z.number().nonnegative().default(0),
  /** a protective stop is due this long after a fill */
  stop_window_ms: z.number().int().positive().default(2 * HOUR_MS),
  /** a funding instruction is due this long after a margin call */
  funding_window_ms: z.number().int().positive().default(4 * HOUR_MS),
  /** a session ends after this much simulated time without a request (and always at 00:00 UTC) */
  session_idle_ms: z.number().int().positive().default(30 * MINUTE_MS),
  /** a mailed one-time code is valid this long */
  code_ttl_ms: z.number().int().positive().default(10 * MINUTE_MS),
  /** failed sign-ins in a row (wrong password or wrong code) that lock the account */
  max_failed_logins: z.number().int().positive().default(5),
  /** how long a lock lasts */
  lockout_ms: z.number().int().positive().default(24 * HOUR_MS),
  /** venue whose 5-minute candles mark the book (the mark = the last completed candle's close) */
  venue: z.string().min(1).default("coinbase"),
  /** the book's assets and their candle symbols */
  symbols: z.record(z.string().regex(/^[A-Z]{2,10}$/), z.string().min(1)).default({ BTC: "BTC-USD", ETH: "ETH-USD" }),
  /** maintenance ratio schedule the risk desk shows (the margin calls themselves come from the world's book) */
  maintenance: z.array(MaintenanceStep).min(1).default([
    { from_day: 1, ratio: 0.3 },
    { from_day: 4, ratio: 0.36 },
    { from_day: 9, ratio: 0.42 }
  ]),
  /** the desk's mailbox (shown in mails and the instruction) */
  mailbox: z.string().email().default("ops-desk@northwind-capital.example")
}).strict();
const defaultBrokerOpsParams = () => BrokerOpsParams.parse({});
export {
  BrokerOpsParams,
  DEFAULT_PASSWORD,
  DEFAULT_USERNAME,
  MaintenanceStep,
  defaultBrokerOpsParams
};
//# sourceMappingURL=params.js.map
