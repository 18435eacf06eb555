import { z } from "zod";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { WebHostSet } from "../../tools/web-host.js";
import { FUNDING_API_PATH, STOP_API_PATH } from "./instructions.js";
import { BROKER_HOST, CODE_API_PATH, SESSION_API_PATH, SIGN_OUT_API_PATH } from "./web/broker-host.js";
const SIGN_IN_TOOL = "broker_sign_in";
const ENTER_CODE_TOOL = "broker_enter_code";
const BROKER_GET_TOOL = "broker_get";
const PLACE_STOP_TOOL = "place_stop";
const SEND_FUNDING_TOOL = "send_funding";
const SIGN_OUT_TOOL = "broker_sign_out";
const BROKER_GET_PATHS = [SESSION_API_PATH, "/api/account", "/api/orders", "/api/margin-calls"];
const PlaceStopArgs = z.object({
  symbol: z.string().describe('asset code, e.g. "BTC"'),
  side: z.enum(["buy", "sell"]),
  qty: z.number().describe("quantity (> 0)"),
  trigger_price: z.number().describe("stop trigger price in USD (> 0)")
}).strict();
const SendFundingArgs = z.object({
  call_id: z.string().describe("the margin call id, as listed by the site (mc-<hex>)"),
  amount: z.number().describe("USD to wire (> 0)")
}).strict();
function siteApiTools(hosts, o) {
  const jar = /* @__PURE__ */ new Map();
  const origin = WebHostSet.origin(BROKER_HOST);
  const priced = o.price_usd > 0 ? `Costs $${o.price_usd} per call.` : "Free.";
  const keep = (r) => {
    for (const sc of r.setCookies) {
      const [pair, ...attrs] = sc.split(";");
      const eq = (pair ?? "").indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = value === "" || attrs.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const request = async (method, path, body) => {
    const headers = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const init = { method, headers };
    if (body !== void 0) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const { response } = await hosts.dispatch(new Request(`${origin}${path}`, init), "tool");
    keep(response);
    let value;
    try {
      value = JSON.parse(response.body);
    } catch {
      throw new Error(`internal: broker API ${method} ${path} answered non-JSON (status ${response.status})`);
    }
    return { status: response.status, value };
  };
  const errorOf = (v, status) => v && typeof v === "object" && typeof v.error === "string" ? `${v.error} (status ${status})` : `the site answered status ${status}`;
  const signIn = defineTool({
    name: SIGN_IN_TOOL,
    description: `Start signing in to the broker site with the desk's username and password. On success the site mails a one-time code to the desk's mailbox (read it with http_get on the mail host) and answers {status: "code_sent", mail_id, code_expires_at}; finish with ${ENTER_CODE_TOOL}. Wrong passwords count toward the lock. ${priced}`,
    args: z.object({ username: z.string(), password: z.string() }).strict(),
    kind: "meta",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const r = await request("POST", SESSION_API_PATH, a);
      return r.status === 200 ? ok(r.value) : reject(errorOf(r.value, r.status));
    }
  });
  const enterCode = defineTool({
    name: ENTER_CODE_TOOL,
    description: `Finish signing in with the one-time code of your latest ${SIGN_IN_TOOL}. Answers {signed_in, expires_at, ends_at}. Wrong or expired codes count toward the lock. ${priced}`,
    args: z.object({ code: z.string() }).strict(),
    kind: "meta",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const r = await request("POST", CODE_API_PATH, a);
      return r.status === 200 ? ok(r.value) : reject(errorOf(r.value, r.status));
    }
  });
  const get = defineTool({
    name: BROKER_GET_TOOL,
    description: `Read the broker site's API: ${BROKER_GET_PATHS.join(", ")} (session status, also when signed out; signed in: the account; the PM's orders of the last 24 h and your stops; margin calls and your funding instructions). Every request of a live session restarts its idle timer. ${priced}`,
    args: z.object({ path: z.enum(BROKER_GET_PATHS) }).strict(),
    kind: "data",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const r = await request("GET", a.path);
      return r.status === 200 ? ok(r.value) : reject(errorOf(r.value, r.status));
    }
  });
  const placeStop = defineTool({
    name: PLACE_STOP_TOOL,
    description: `Place a stop order on the broker site (signed in): {symbol, side, qty, trigger_price}. Answers {stop: {id, symbol, side, qty, trigger_price, submitted_at, mark}}. ${priced}`,
    args: PlaceStopArgs,
    kind: "commit",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const r = await request("POST", STOP_API_PATH, a);
      return r.status === 201 ? ok(r.value) : reject(errorOf(r.value, r.status));
    }
  });
  const sendFunding = defineTool({
    name: SEND_FUNDING_TOOL,
    description: `Send a funding instruction for a margin call on the broker site (signed in): {call_id, amount (USD)}. Answers {funding: {id, call_id, amount, submitted_at}}. ${priced}`,
    args: SendFundingArgs,
    kind: "commit",
    domain: "web",
    price: () => o.price_usd,
    async run(a) {
      const r = await request("POST", FUNDING_API_PATH, a);
      return r.status === 201 ? ok(r.value) : reject(errorOf(r.value, r.status));
    }
  });
  const signOut = defineTool({
    name: SIGN_OUT_TOOL,
    description: "Free. Sign out of the broker site.",
    args: z.object({}).strict(),
    kind: "meta",
    async run() {
      const r = await request("POST", SIGN_OUT_API_PATH, {});
      return ok(r.value);
    }
  });
  return [signIn, enterCode, get, placeStop, sendFunding, signOut];
}
export {
  BROKER_GET_PATHS,
  BROKER_GET_TOOL,
  ENTER_CODE_TOOL,
  PLACE_STOP_TOOL,
  PlaceStopArgs,
  SEND_FUNDING_TOOL,
  SIGN_IN_TOOL,
  SIGN_OUT_TOOL,
  SendFundingArgs,
  siteApiTools
};
//# sourceMappingURL=site-tools.js.map
