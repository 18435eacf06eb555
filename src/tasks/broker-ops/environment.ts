import { type WebToolSet, webToolSet } from "../../tools/browser/web-tool-set.js";
import type { ToolDef } from "../../tools/tool.js";
import type { TaskRunContext } from "../task.js";
import { BookView } from "./book-view.js";
import type { BrokerOpsParams } from "./params.js";
import { siteApiTools } from "./site-tools.js";
import { brokerHost } from "./web/broker-host.js";
import { DeskRecords } from "./web/desk-records.js";
import { eventsHost } from "./web/events-host.js";
import { mailHost } from "./web/mail-host.js";
import { Outbox } from "./web/outbox.js";
import { SignInDesk } from "./web/sign-in.js";

/** names of the run's secrets (placeholders `[redacted:broker_password]`, `[redacted:broker_code]`) */
export const PASSWORD_SECRET = "broker_password";
export const CODE_SECRET = "broker_code";

export interface BrokerOpsEnv {
  web: WebToolSet;
  book: BookView;
  desk: SignInDesk;
  records: DeskRecords;
  outbox: Outbox;
  tools: ToolDef[];
  /** closes the browser (idempotent): the run's `dispose` */
  dispose(): Promise<void>;
}

/**
 * One run's web: the events/account API and the mailbox (read-only, from the as-of view plus the
 * site's outbox), the broker site (writable by the browser, or by the site's API tools under
 * `site_mode: "api"`), `http_get`, and the browser tools (browser mode). The browser is launched on
 * the first browser call and closed at the kernel's end. Site state (sessions, codes, the desk's
 * instructions) lives only here and is rebuilt by re-running the episode. The password and every
 * one-time code are registered as the run's secrets (`ctx.secrets`: the ledger and llm.jsonl show
 * `[redacted:<name>]` wherever the agent typed them); the site also redacts those form fields from
 * its request logs (`BROKER_REDACT`). The browser closes at the kernel's end, or by `dispose` (the
 * task run's `dispose`, also called when the run fails before its end).
 */
export function createBrokerOpsEnv(ctx: TaskRunContext<BrokerOpsParams>): BrokerOpsEnv {
  const p = ctx.params;
  const book = new BookView(ctx.view, p, ctx.sim_start);
  const outbox = new Outbox();
  // credentials and every issued code are the run's secrets: the ledger and llm.jsonl never show them
  ctx.secrets?.add(PASSWORD_SECRET, p.password);
  const desk = SignInDesk.fromParams(p, ctx.env_seed, outbox, (code) => ctx.secrets?.add(CODE_SECRET, code));
  const records = new DeskRecords();
  const browser = p.site_mode === "browser";
  const site = brokerHost(
    { desk, records, book, username: p.username, mailbox: p.mailbox, assets: book.assets() },
    browser ? "browser" : "tool",
  );
  const web = webToolSet({
    hosts: [eventsHost(book), mailHost(book, outbox, p.mailbox), site],
    now: () => ctx.view.now(),
    browser,
    http_get_usd: p.http_get_usd,
    browser_usd: p.browser_call_usd,
    closeAt: ctx.kernel,
  });
  const tools = browser ? web.tools : [...web.tools, ...siteApiTools(web.hosts, { price_usd: p.browser_call_usd })];
  return { web, book, desk, records, outbox, tools, dispose: () => web.dispose() };
}
