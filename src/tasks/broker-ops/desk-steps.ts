import { z } from "zod";
import { HOUR_MS, isoInstant } from "../../common/time.js";
import { HTTP_GET_TOOL } from "../../tools/browser/http-get-tool.js";
import type { PolicyStep, StepResult } from "../policy-steps.js";
import { BROKER_GET_TOOL, ENTER_CODE_TOOL, PLACE_STOP_TOOL, SEND_FUNDING_TOOL, SIGN_IN_TOOL } from "./site-tools.js";
import { BROKER_HOST, LOGIN_PATH } from "./web/broker-host.js";
import { EVENTS_HOST } from "./web/events-host.js";
import { MAIL_HOST } from "./web/mail-host.js";

/**
 * The desk's routine as step generators over the agent tools (http_get, the browser tools or the
 * site's API tools): each yields `{tool, args}` and receives the tool's result, so the same code
 * drives the scripted reference policies (`runSteps`) and the LLM-agent tests (a test server
 * replaying the steps as tool calls).
 */
export type Steps<R = void> = Generator<PolicyStep, R, StepResult>;

/** What a desk routine remembers between wakes (per run). */
export interface DeskState {
  /** how the broker site is reached, found out at the first wake */
  mode: "browser" | "api" | null;
  /** fills (event id) and margin calls (call id) already handled */
  handled: Set<string>;
}

export const newDeskState = (): DeskState => ({ mode: null, handled: new Set() });

export interface Credentials {
  username: string;
  password: string;
}

/** A fill or margin call the desk must act on, as the events API shows it. */
export type DeskDuty =
  | { kind: "stop"; id: string; symbol: string; side: "buy" | "sell"; qty: number }
  | { kind: "funding"; id: string; call_id: string; required_amount: number };

const BROKER = `http://${BROKER_HOST}.relive.test`;
/** how far a protective stop's trigger sits from the mark */
export const STOP_OFFSET = 0.02;
/** the spec's duty windows (the routine reads them from the instruction) */
const STOP_WINDOW_MS = 2 * HOUR_MS;
const FUNDING_WINDOW_MS = 4 * HOUR_MS;

const HttpGetValue = z.object({ status: z.number(), body: z.string() });
const EventsPage = z.object({
  events: z.array(z.object({ id: z.string(), t: z.string(), kind: z.string() }).catchall(z.unknown())),
  next_offset: z.number().nullable(),
});
const Account = z.object({ marks: z.record(z.string(), z.object({ price: z.number() }).nullable()) });
const Messages = z.object({ messages: z.array(z.object({ subject: z.string(), body: z.string() })) });
const SessionValue = z.object({ signed_in: z.boolean() });
const PageValue = z.object({ url: z.string(), status: z.number().nullable() });

/** GET a read-only host through http_get; the parsed JSON body, or null on any failure. */
function* getJson<T>(host: string, path: string, schema: z.ZodType<T>): Steps<T | null> {
  const r = yield { tool: HTTP_GET_TOOL, args: { host, path, max_chars: 200_000 } };
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

/** Once per run: the browser tools answer in browser mode, the site's API tools otherwise. */
export function* detectMode(state: DeskState): Steps {
  if (state.mode !== null) return;
  const r = yield { tool: "browser_snapshot", args: {} };
  state.mode = r.ok ? "browser" : "api";
}

/** Fills and margin calls of the last `lookbackMs` from the events API, oldest first. */
export function* recentDuties(now: number, lookbackMs = FUNDING_WINDOW_MS): Steps<DeskDuty[] | null> {
  const out: DeskDuty[] = [];
  let offset = 0;
  for (;;) {
    const page = yield* getJson(
      EVENTS_HOST,
      `/api/events?since=${isoInstant(now - lookbackMs)}&offset=${offset}&limit=1000`,
      EventsPage,
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
          qty: Number(e.qty),
        });
      if (e.kind === "margin_call" && age < FUNDING_WINDOW_MS)
        out.push({ kind: "funding", id: e.id, call_id: String(e.call_id), required_amount: Number(e.required_amount) });
    }
    if (page.next_offset === null) return out;
    offset = page.next_offset;
  }
}

/** The newest one-time code mailed at or after `since` (null when none). */
function* mailedCode(since: number): Steps<string | null> {
  const box = yield* getJson(MAIL_HOST, `/api/messages?since=${isoInstant(since)}`, Messages);
  if (!box) return null;
  for (const m of [...box.messages].reverse()) {
    const code = /code is (\d{6})/.exec(m.body)?.[1];
    if (m.subject === "Your sign-in code" && code) return code;
  }
  return null;
}

/** Browser mode: open `path` on the broker site, signing in first when the site sends us to the sign-in page. */
function* openSignedIn(path: string, creds: Credentials, now: number): Steps<boolean> {
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

/** API mode: make sure a session is live, signing in (password, then the mailed code) when not. */
function* apiSignedIn(creds: Credentials, now: number): Steps<boolean> {
  const s = yield { tool: BROKER_GET_TOOL, args: { path: "/api/session" } };
  if (s.ok && SessionValue.safeParse(s.value).data?.signed_in === true) return true;
  const started = yield { tool: SIGN_IN_TOOL, args: { username: creds.username, password: creds.password } };
  if (!started.ok) return false;
  const code = yield* mailedCode(now);
  if (code === null) return false;
  const done = yield { tool: ENTER_CODE_TOOL, args: { code } };
  return done.ok;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Acts on `duties` not handled yet: reads the marks, signs in when needed, places one protective
 * stop per fill (opposite side, the fill's quantity, trigger 2% beyond the mark on the protective
 * side) and one funding instruction per margin call (the required amount). Marks a duty handled
 * only when the site accepted the instruction.
 */
export function* actOn(state: DeskState, duties: readonly DeskDuty[], creds: Credentials, now: number): Steps {
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
        if (mark === undefined) continue;
        const side = d.side === "buy" ? "sell" : "buy";
        const trigger = round2(side === "sell" ? mark * (1 - STOP_OFFSET) : mark * (1 + STOP_OFFSET));
        if (browser) {
          if (!(yield* openSignedIn("/orders/new-stop", creds, now))) return;
          const steps: PolicyStep[] = [
            { tool: "browser_select", args: { selector: 'select[name="symbol"]', value: d.symbol } },
            { tool: "browser_select", args: { selector: 'select[name="side"]', value: side } },
            { tool: "browser_fill", args: { selector: 'input[name="qty"]', text: String(d.qty) } },
            { tool: "browser_fill", args: { selector: 'input[name="trigger_price"]', text: String(trigger) } },
          ];
          let filled = true;
          for (const s of steps) if (!(yield s).ok) filled = false;
          if (!filled) continue;
          const r = yield { tool: "browser_submit", args: { selector: 'input[name="trigger_price"]' } };
          if (r.ok && PageValue.safeParse(r.value).data?.status === 201) state.handled.add(d.id);
        } else {
          const r = yield {
            tool: PLACE_STOP_TOOL,
            args: { symbol: d.symbol, side, qty: d.qty, trigger_price: trigger },
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
            args: { selector: 'input[name="amount"]', text: d.required_amount.toFixed(2) },
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
        const never: never = d;
        throw new Error(`unknown desk duty ${JSON.stringify(never)}`);
      }
    }
  }
}

/** The 25-minute poller's wake: read the events API, act on the fills and margin calls still in their windows. */
export function* pollerWake(state: DeskState, creds: Credentials, now: number): Steps {
  const duties = yield* recentDuties(now);
  if (duties) yield* actOn(state, duties, creds, now);
}

/** A desk that watches but never signs in: reads the events API and the mailbox, does nothing else. */
export function* watchOnlyWake(now: number): Steps {
  yield* recentDuties(now);
  yield* getJson(MAIL_HOST, `/api/messages?since=${isoInstant(now - FUNDING_WINDOW_MS)}`, Messages);
}
