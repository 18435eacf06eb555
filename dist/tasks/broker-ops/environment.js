import { webToolSet } from "../../tools/browser/web-tool-set.js";
import { BookView } from "./book-view.js";
import { siteApiTools } from "./site-tools.js";
import { brokerHost } from "./web/broker-host.js";
import { DeskRecords } from "./web/desk-records.js";
import { eventsHost } from "./web/events-host.js";
import { mailHost } from "./web/mail-host.js";
import { Outbox } from "./web/outbox.js";
import { SignInDesk } from "./web/sign-in.js";
const PASSWORD_SECRET = "broker_password";
const CODE_SECRET = "broker_code";
function createBrokerOpsEnv(ctx) {
  const p = ctx.params;
  const book = new BookView(ctx.view, p, ctx.sim_start);
  const outbox = new Outbox();
  ctx.secrets?.add(PASSWORD_SECRET, p.password);
  const desk = SignInDesk.fromParams(p, ctx.env_seed, outbox, (code) => ctx.secrets?.add(CODE_SECRET, code));
  const records = new DeskRecords();
  const browser = p.site_mode === "browser";
  const site = brokerHost(
    { desk, records, book, username: p.username, mailbox: p.mailbox, assets: book.assets() },
    browser ? "browser" : "tool"
  );
  const web = webToolSet({
    hosts: [eventsHost(book), mailHost(book, outbox, p.mailbox), site],
    now: () => ctx.view.now(),
    browser,
    http_get_usd: p.http_get_usd,
    browser_usd: p.browser_call_usd,
    closeAt: ctx.kernel
  });
  const tools = browser ? web.tools : [...web.tools, ...siteApiTools(web.hosts, { price_usd: p.browser_call_usd })];
  return { web, book, desk, records, outbox, tools, dispose: () => web.dispose() };
}
export {
  CODE_SECRET,
  PASSWORD_SECRET,
  createBrokerOpsEnv
};
//# sourceMappingURL=environment.js.map
