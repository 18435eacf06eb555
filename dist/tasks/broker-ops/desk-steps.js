import { z } from "zod";
import { HOUR_MS, isoInstant } from "../../kernel/day.js";
import { HTTP_GET_TOOL } from "../../tools/browser/http-get-tool.js";
import { BROKER_GET_TOOL, ENTER_CODE_TOOL, PLACE_STOP_TOOL, SEND_FUNDING_TOOL, SIGN_IN_TOOL } from "./site-tools.js";
import { BROKER_HOST, LOGIN_PATH } from "./web/broker-host.js";
import { EVENTS_HOST } from "./web/events-host.js";
import { MAIL_HOST } from "./web/mail-host.js";
const newDeskState = () => ({ mode: null, handled: /* @__PURE__ */ new Set() });
const BROKER = `http://${BROKER_HOST}.relive.test`;
const STOP_OFFSET = 0.02;
const STOP_WINDOW_MS = 2 * HOUR_MS;
const FUNDING_WINDOW_MS = 4 * HOUR_MS;
const HttpGetValue = z.object({ status: z.number(), body: z.string() });
const EventsPage = z.object({
  events: z.array(z.object({ id: z.string(), t: z.string(), kind: z.string() }).catchall(z.unknown())),
  next_offset: z.number().nullable()
});
const Account = z.object({ marks: z.record(z.string(), z.object({ price: z.number() }).nullable()) });
const Messages = z.object({ messages: z.array(z.object({ subject: z.string(), body: z.string() })) });
const SessionValue = z.object({ signed_in: z.boolean() });
const PageValue = z.object({ url: z.string(), status: z.number().nullable() });
function* getJson(host, path, schema) {
  const r = yield { tool: HTTP_GET_TOOL, args: { host, path, max_chars: 2e5 } };
  if (!r.ok) return null;
  const v = HttpGetValue.safeParse(r.value);
  if (!v.success || v.data.status !== 200) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(v.data.body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
function* detectMode(state) {
  if (state.mode !== null) return;
  const r = yield { tool: "browser_snapshot", args: {} };
  state.mode = r.ok ? "browser" : "api";
}
function* recentDuties(now, lookbackMs = FUNDING_WINDOW_MS) {
  const out = [];
  let offset = 0;
  for (; ; ) {
    const page = yield* getJson(
      EVENTS_HOST,
      `/api/events?since=${isoInstant(now - lookbackMs)}&offset=${offset}&limit=1000`,
      EventsPage
    );
    if (!page) return null;
    for (const e of page.events) {
      const age = now - Date.parse(e.t);
      if (e.kind === "fill" && age < STOP_WINDOW_MS)
        out.push({
          kind: "stop",
          id: e.id,
          symbol: String(e.symbol),
          side: e.side === "sell" ? "sell" : "buy",
          qty: Number(e.qty)
        });
      if (e.kind === "margin_call" && age < FUNDING_WINDOW_MS)
        out.push({ kind: "funding", id: e.id, call_id: String(e.call_id), required_amount: Number(e.required_amount) });
    }
    if (page.next_offset === null) return out;
    offset = page.next_offset;
  }
}
function* mailedCode(since) {
  const box = yield* getJson(MAIL_HOST, `/api/messages?since=${isoInstant(since)}`, Messages);
  if (!box) return null;
  for (const m of [...box.messages].reverse()) {
    const code = /code is (\d{6})/.exec(m.body)?.[1];
    if (m.subject === "Your sign-in code" && code) return code;
  }
  return null;
}
function* openSignedIn(path, creds, now) {
  const first = yield { tool: "browser_navigate", args: { url: `${BROKER}${path}` } };
  if (!first.ok) return false;
  const at = PageValue.safeParse(first.value);
  if (!at.success) return false;
  if (!at.data.url.endsWith(LOGIN_PATH)) return at.data.status === 200;
  const u = yield { tool: "browser_fill", args: { selector: 'input[name="username"]', text: creds.username } };
  if (!u.ok) return false;
  const p = yield { tool: "browser_fill", args: { selector: 'input[name="password"]', text: creds.password } };
  if (!p.ok) return false;
  const sent = yield { tool: "browser_submit", args: { selector: 'input[name="password"]' } };
  if (!sent.ok || PageValue.safeParse(sent.value).data?.status !== 200) return false;
  const code = yield* mailedCode(now);
  if (code === null) return false;
  const c = yield { tool: "browser_fill", args: { selector: 'input[name="code"]', text: code } };
  if (!c.ok) return false;
  const done = yield { tool: "browser_submit", args: { selector: 'input[name="code"]' } };
  if (!done.ok || PageValue.safeParse(done.value).data?.status !== 200) return false;
  const again = yield { tool: "browser_navigate", args: { url: `${BROKER}${path}` } };
  return again.ok && PageValue.safeParse(again.value).data?.status === 200;
}
function* apiSignedIn(creds, now) {
  const s = yield { tool: BROKER_GET_TOOL, args: { path: "/api/session" } };
  if (s.ok && SessionValue.safeParse(s.value).data?.signed_in === true) return true;
  const started = yield { tool: SIGN_IN_TOOL, args: { username: creds.username, password: creds.password } };
  if (!started.ok) return false;
  const code = yield* mailedCode(now);
  if (code === null) return false;
  const done = yield { tool: ENTER_CODE_TOOL, args: { code } };
  return done.ok;
}
const round2 = (x) => Math.round(x * 100) / 100;
function* actOn(state, duties, creds, now) {
  const open = duties.filter((d) => !state.handled.has(d.id));
  if (open.length === 0) return;
  yield* detectMode(state);
  const account = yield* getJson(EVENTS_HOST, "/api/account", Account);
  if (!account) return;
  const browser = state.mode === "browser";
  if (!browser && !(yield* apiSignedIn(creds, now))) return;
  for (const d of open) {
    switch (d.kind) {
      case "stop": {
        const mark = account.marks[d.symbol]?.price;
        if (mark === void 0) continue;
        const side = d.side === "buy" ? "sell" : "buy";
        const trigger = round2(side === "sell" ? mark * (1 - STOP_OFFSET) : mark * (1 + STOP_OFFSET));
        if (browser) {
          if (!(yield* openSignedIn("/orders/new-stop", creds, now))) return;
          const steps = [
            { tool: "browser_select", args: { selector: 'select[name="symbol"]', value: d.symbol } },
            { tool: "browser_select", args: { selector: 'select[name="side"]', value: side } },
            { tool: "browser_fill", args: { selector: 'input[name="qty"]', text: String(d.qty) } },
            { tool: "browser_fill", args: { selector: 'input[name="trigger_price"]', text: String(trigger) } }
          ];
          let filled = true;
          for (const s of steps) if (!(yield s).ok) filled = false;
          if (!filled) continue;
          const r = yield { tool: "browser_submit", args: { selector: 'input[name="trigger_price"]' } };
          if (r.ok && PageValue.safeParse(r.value).data?.status === 201) state.handled.add(d.id);
        } else {
          const r = yield {
            tool: PLACE_STOP_TOOL,
            args: { symbol: d.symbol, side, qty: d.qty, trigger_price: trigger }
          };
          if (r.ok) state.handled.add(d.id);
        }
        break;
      }
      case "funding": {
        if (browser) {
          if (!(yield* openSignedIn("/risk/funding/new", creds, now))) return;
          const sel = yield { tool: "browser_select", args: { selector: 'select[name="call_id"]', value: d.call_id } };
          if (!sel.ok) continue;
          const amt = yield {
            tool: "browser_fill",
            args: { selector: 'input[name="amount"]', text: d.required_amount.toFixed(2) }
          };
          if (!amt.ok) continue;
          const r = yield { tool: "browser_submit", args: { selector: 'input[name="amount"]' } };
          if (r.ok && PageValue.safeParse(r.value).data?.status === 201) state.handled.add(d.id);
        } else {
          const r = yield { tool: SEND_FUNDING_TOOL, args: { call_id: d.call_id, amount: d.required_amount } };
          if (r.ok) state.handled.add(d.id);
        }
        break;
      }
      default: {
        const never = d;
        throw new Error(`unknown desk duty ${JSON.stringify(never)}`);
      }
    }
  }
}
function* pollerWake(state, creds, now) {
  const duties = yield* recentDuties(now);
  if (duties) yield* actOn(state, duties, creds, now);
}
function* watchOnlyWake(now) {
  yield* recentDuties(now);
  yield* getJson(MAIL_HOST, `/api/messages?since=${isoInstant(now - FUNDING_WINDOW_MS)}`, Messages);
}
export {
  STOP_OFFSET,
  actOn,
  detectMode,
  newDeskState,
  pollerWake,
  recentDuties,
  watchOnlyWake
};
//# sourceMappingURL=desk-steps.js.map
