import { z } from "zod";
import { HOUR_MS, MINUTE_MS } from "../../common/time.js";

/** Sign-in name and password of the synthetic world's ops account (used when the run config sets none). */
export const DEFAULT_USERNAME = "ops-desk";
export const DEFAULT_PASSWORD = "Margin-Desk-2026";

/** The maintenance margin ratio the risk desk applies, by episode day (1-based, from that day on). */
export const MaintenanceStep = z
  .object({ from_day: z.number().int().positive(), ratio: z.number().positive().max(1) })
  .strict();

/**
 * broker-ops parameters (run config `task_params`). Defaults follow tasks.md §8: credentials of the
 * synthetic world's account, the broker site in the browser (`site_mode: "api"` swaps the browser
 * tools for the site's API tools), duty windows 2 h (protective stop after a fill) and 4 h (funding
 * after a margin call), sessions that expire after 30 idle minutes and at 00:00 UTC, one-time codes
 * valid 10 minutes, five failed sign-ins in a row lock the account for 24 h.
 */
export const BrokerOpsParams = z
  .object({
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
    stop_window_ms: z
      .number()
      .int()
      .positive()
      .default(2 * HOUR_MS),
    /** a funding instruction is due this long after a margin call */
    funding_window_ms: z
      .number()
      .int()
      .positive()
      .default(4 * HOUR_MS),
    /** a session ends after this much simulated time without a request (and always at 00:00 UTC) */
    session_idle_ms: z
      .number()
      .int()
      .positive()
      .default(30 * MINUTE_MS),
    /** a mailed one-time code is valid this long */
    code_ttl_ms: z
      .number()
      .int()
      .positive()
      .default(10 * MINUTE_MS),
    /** failed sign-ins in a row (wrong password or wrong code) that lock the account */
    max_failed_logins: z.number().int().positive().default(5),
    /** how long a lock lasts */
    lockout_ms: z
      .number()
      .int()
      .positive()
      .default(24 * HOUR_MS),
    /** venue whose 5-minute candles mark the book (the mark = the last completed candle's close) */
    venue: z.string().min(1).default("coinbase"),
    /** the book's assets and their candle symbols */
    symbols: z.record(z.string().regex(/^[A-Z]{2,10}$/), z.string().min(1)).default({ BTC: "BTC-USD", ETH: "ETH-USD" }),
    /** maintenance ratio schedule the risk desk shows (the margin calls themselves come from the world's book) */
    maintenance: z
      .array(MaintenanceStep)
      .min(1)
      .default([
        { from_day: 1, ratio: 0.3 },
        { from_day: 4, ratio: 0.36 },
        { from_day: 9, ratio: 0.42 },
      ]),
    /** the desk's mailbox (shown in mails and the instruction) */
    mailbox: z.string().email().default("ops-desk@northwind-capital.example"),
  })
  .strict();

export type BrokerOpsParams = z.output<typeof BrokerOpsParams>;

export const defaultBrokerOpsParams = (): BrokerOpsParams => BrokerOpsParams.parse({});
