import { isoInstant } from "../../common/time.js";
import type { Observation, StateSection } from "../task.js";
import type { BookLog } from "./book-log.js";
import type { Duty } from "./duties.js";
import type { DeskRecords } from "./web/desk-records.js";
import { mailOfEvent } from "./web/mail-host.js";
import type { Outbox } from "./web/outbox.js";

/**
 * The open duties now (event visible, deadline not passed), each with the desk's own instructions
 * the site recorded for it so far (stops on the fill's symbol since the fill; funding for the call
 * id). It lists submissions, not verdicts: whether a stop protects the fill is the scorer's call.
 */
export function openDutyState(duties: readonly Duty[], records: DeskRecords, now: number): StateSection[] {
  const lines = duties
    .filter((d) => d.t <= now && now < d.deadline)
    .map((d) => {
      if (d.kind === "stop") {
        const f = d.fill.p;
        const ids = records.stops.filter((s) => s.symbol === f.symbol && s.submitted_at >= d.t).map((s) => s.id);
        return (
          `${d.key}: fill ${f.side} ${f.qty} ${f.symbol} @ ${f.price} at ${isoInstant(d.t)}; protective stop due before ` +
          `${isoInstant(d.deadline)}; stops on record since: ${ids.length ? ids.join(", ") : "none"}`
        );
      }
      const c = d.call.p;
      const ids = records.funding.filter((x) => x.call_id === c.call_id && x.submitted_at >= d.t).map((x) => x.id);
      return (
        `${d.key}: margin call ${c.call_id} for ${c.required_amount} USD at ${isoInstant(d.t)}; funding due before ` +
        `${isoInstant(d.deadline)}; funding on record: ${ids.length ? ids.join(", ") : "none"}`
      );
    });
  return [{ title: "open duties (stops for fills, funding for margin calls)", lines }];
}

/**
 * What became visible to the desk in (since, now], by (t, id): the PM book's rows (fills, margin
 * calls, notes, orders, positions; summarized by the mail they send when they send one) and the
 * site's own mails (sign-in codes: the subject only, never the code). The book rows come from the
 * incremental log's arrivals (visible_at ≤ the view's now); the outbox is capped at `viewNow`.
 */
export function deskObservations(
  log: BookLog,
  outbox: Outbox,
  mailbox: string,
  since: number,
  now: number,
  viewNow: number,
): Observation[] {
  const out: Observation[] = [];
  for (const { visible_at, e } of log.arrivedIn(since, now)) {
    const mail = mailOfEvent(e, mailbox);
    out.push({ t: visible_at, kind: e.kind, id: e.id, summary: mail ? mail.subject : `${e.kind} ${e.id}` });
  }
  for (const m of outbox.sentBy(Math.min(now, viewNow)))
    if (m.t > since) out.push({ t: m.t, kind: "mail", id: m.id, summary: m.subject });
  return out.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
