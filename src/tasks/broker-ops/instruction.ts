import { formatDuration, isoDay } from "../../common/time.js";
import { HTTP_GET_DEFAULT_CHARS } from "../../tools/browser/http-get-tool.js";
import type { BrokerOpsParams } from "./params.js";
import {
  BROKER_GET_PATHS,
  ENTER_CODE_TOOL,
  PLACE_STOP_TOOL,
  SEND_FUNDING_TOOL,
  SIGN_IN_TOOL,
  SIGN_OUT_TOOL,
} from "./site-tools.js";
import { EVENTS_ENDPOINTS } from "./web/events-host.js";

export interface InstructionInput {
  params: BrokerOpsParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

const price = (usd: number, what: string) => (usd > 0 ? `$${usd} per ${what}` : "free");

/** The agent's task text, rendered with the run's window, budget, prices, credentials, rules and site mode. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const browser = p.site_mode === "browser";
  const maint = [...p.maintenance]
    .sort((a, b) => a.from_day - b.from_day)
    .map((m) => (m.from_day === 1 ? `${m.ratio}` : `${m.ratio} from day ${m.from_day}`))
    .join(", ");
  const site = browser
    ? [
        "## The broker site (sign-in required)",
        "Open http://broker.relive.test/ in the browser (the browser_* tools). Pages: Account (/), Positions " +
          "(/positions), Orders (/orders: the PM's day orders and your stop orders; the stop form is at " +
          "/orders/new-stop), Notices (/notices) and the Risk desk (/risk: margin calls and your funding " +
          "instructions; the funding form is at /risk/funding/new). The site accepts changes only from your browser.",
        "- Sign in at http://broker.relive.test/login with the username and password below; the site then mails a " +
          "one-time code to the desk's mailbox: read it there and enter it on the code page.",
        `- Browser tools (${price(p.browser_call_usd, "acting call")}): browser_navigate(url), browser_snapshot(), ` +
          "browser_click(ref), browser_fill(ref, text), browser_select(ref, value), browser_submit(ref). Each action " +
          "returns the page's accessibility snapshot with element refs ([ref=e7]) and the simulated time it was " +
          "rendered at. The browser reaches only the hosts named here; anything else is blocked.",
      ]
    : [
        "## The broker site (sign-in required), through its API",
        `- ${SIGN_IN_TOOL}(username, password) starts a sign-in: the site mails a one-time code to the desk's ` +
          `mailbox; read it there and finish with ${ENTER_CODE_TOOL}(code). ${SIGN_OUT_TOOL}() signs out.`,
        `- broker_get(path) reads ${BROKER_GET_PATHS.join(", ")}; ${PLACE_STOP_TOOL}(symbol, side, qty, ` +
          `trigger_price) places a stop order; ${SEND_FUNDING_TOOL}(call_id, amount) sends a funding instruction ` +
          `(${price(p.browser_call_usd, "call")}).`,
      ];
  return [
    "# Broker operations desk",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive) as the operations desk of a ` +
      "portfolio manager (PM) who trades BTC and ETH through a broker. You cannot trade or change positions; you keep " +
      "the book protected and funded.",
    "",
    "## Your duties",
    `- After every fill of the PM's orders, place a protective stop order within ${formatDuration(p.stop_window_ms)} of ` +
      "the fill: same asset, the opposite side of the fill (a sell stop after a buy fill, a buy stop after a sell " +
      "fill), quantity > 0, and a trigger price on the protective side of the mark when you submit it (a sell stop " +
      "below the mark, a buy stop above it). Each fill needs its own stop.",
    `- After every margin call, send a funding instruction for that call (its call id) of at least the required ` +
      `amount within ${formatDuration(p.funding_window_ms)} of the call.`,
    "",
    "## The book",
    `The PM places day orders at 01:00, 09:00 and 17:00 UTC, 1% off the mark, that expire at 00:00 UTC. The mark is ` +
      `the close of the last completed 5-minute candle on ${p.venue}. The risk desk checks the margin ratio (equity / ` +
      `gross market value) every 5 minutes and issues a margin call when it falls below the maintenance ratio (${maint}; ` +
      "day 1 is the first day of the run), at most one every 12 hours; the required amount restores maintenance; the " +
      "treasury wires it at the call's deadline.",
    "",
    "## Read-only hosts",
    `- http://events.relive.test: the PM book's events and the account, JSON: ${EVENTS_ENDPOINTS.map((e) => `${e.path} (${e.doc})`).join("; ")}.`,
    `- http://mail.relive.test: the desk's mailbox ${p.mailbox} (PM notes and fill confirmations, margin call ` +
      "notices, one-time sign-in codes). HTML inbox at /, JSON at /api/messages?since=&offset=&limit= (oldest first) " +
      "and /api/messages/<id>.",
    `- http_get(host, path, offset?, max_chars?) reads them (${price(p.http_get_usd, "call")}); answers are paged by ` +
      `characters (${HTTP_GET_DEFAULT_CHARS} by default).`,
    "",
    ...site,
    "",
    "## Your credentials",
    `- Username: ${p.username}`,
    `- Password: ${p.password}`,
    `- One-time codes are valid for ${formatDuration(p.code_ttl_ms)}; a new sign-in replaces the pending code. Sessions ` +
      `end after ${formatDuration(p.session_idle_ms)} without a request and always at 00:00 UTC. ` +
      `${p.max_failed_logins} failed sign-ins in a row (a wrong password or a wrong or expired code) lock the account ` +
      `for ${formatDuration(p.lockout_ms)}.`,
    "",
    "## Scoring",
    "Each duty is scored at its deadline: met (1) or not (0). Duties whose deadline falls after the run ends are not " +
      "scored. Your score is the share of duties met.",
    "",
    `Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
