import { closeSync, openSync, writeSync } from "node:fs";
import { isoInstant } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import { type Outcome, releasedAtOf } from "../tasks/task.js";

/**
 * One line of `memory/records.jsonl`: a released outcome as the agent may know it.
 * - `t`: its release instant (ISO; `released_at`, never the settlement time),
 * - `src`: the source row it came from (`ledger:<line>` of the outcome event; `self:<drain ISO>#<i>` for a self label),
 * - `outcome`: key, status and credit (self labels: an id field of the label, status "label", credit null),
 * - `action`: the agent's own last commitment before it that names the item (`<tool> <args>`), or null,
 * - `note`: the rest of the agent-facing payload (the task's oracle payload, or the self label), compact JSON.
 */
export interface OutcomeRecord {
  t: string;
  src: string;
  outcome: { key: string; status: string; credit: number | null };
  action: string | null;
  note: string;
}

/** longest `note` / `action` text kept in a record */
export const RECORD_TEXT_MAX = 400;

const clip = (s: string, max = RECORD_TEXT_MAX) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** the item an outcome key names: `q:abc` → abc, `claim:BTC@2026-…` → BTC (the whole key when it has no kind) */
export function itemOfKey(key: string): string {
  const i = key.indexOf(":");
  const rest = i < 0 ? key : key.slice(i + 1);
  const at = rest.indexOf("@");
  return at < 0 ? rest : rest.slice(0, at);
}

const restJson = (payload: Record<string, unknown>, drop: readonly string[]) => {
  const rest = Object.fromEntries(Object.entries(payload).filter(([k]) => !drop.includes(k)));
  return Object.keys(rest).length ? clip(JSON.stringify(rest)) : "";
};

interface Commit {
  t: number;
  tool: string;
  json: string;
}

/**
 * The learn step's source of outcomes: it follows the run's ledger (fed each event in order through
 * the ledger's subscription; an event's line is seq + 1) and releases outcome events by `released_at` (DESIGN invariant 5), in release order
 * (ties: ledger order). Only the task's agent-facing oracle payload reaches a record, exactly what
 * `get_feedback` would show at the same instant.
 */
export class OutcomeDrain {
  private pending: { e: Extract<LedgerEvent, { type: "outcome" }>; line: number; released: number }[] = [];
  private readonly commits: Commit[] = [];

  constructor(private readonly payload: (o: Outcome) => Record<string, unknown> | null) {}

  /** the run's next ledger event, in ledger order (its line is `seq + 1`) */
  observe(e: LedgerEvent): void {
    if (e.type === "commitment") this.commits.push({ t: e.t, tool: e.tool, json: JSON.stringify(e.args) ?? "null" });
    if (e.type === "outcome") this.pending.push({ e, line: e.seq + 1, released: releasedAtOf(e) });
  }

  /** outcomes released in (last drain, now], as records (payloads the task omits are skipped) */
  drain(now: number): OutcomeRecord[] {
    const due = this.pending
      .filter((p) => p.released <= now)
      .sort((a, b) => a.released - b.released || a.line - b.line);
    this.pending = this.pending.filter((p) => p.released > now);
    const out: OutcomeRecord[] = [];
    for (const { e, line, released } of due) {
      const o: Outcome = {
        t: e.t,
        key: e.key,
        status: e.status,
        credit: e.credit,
        released_at: released,
        detail: e.detail,
      };
      const shown = this.payload(o);
      if (shown === null) continue;
      out.push({
        t: isoInstant(released),
        src: `ledger:${line}`,
        outcome: { key: e.key, status: e.status, credit: e.credit },
        action: this.actionFor(itemOfKey(e.key), e.t),
        note: restJson(shown, ["key", "status", "credit"]),
      });
    }
    return out;
  }

  /** the agent's last commitment at or before `t` whose arguments name `item` */
  private actionFor(item: string, t: number): string | null {
    if (item.length === 0) return null;
    const needle = JSON.stringify(item);
    for (let i = this.commits.length - 1; i >= 0; i--) {
      const c = this.commits[i]!;
      if (c.t > t || !c.json.includes(needle)) continue;
      return clip(`${c.tool} ${c.json} at ${isoInstant(c.t)}`);
    }
    return null;
  }
}

/** `self` labels (task-defined, from visible data) as records: the label's id field names the item. */
export function recordsOfSelfLabels(labels: readonly Record<string, unknown>[], now: number): OutcomeRecord[] {
  return labels.map((l, i) => {
    const idField = Object.keys(l).find((k) => /(^|_)id$/.test(k) && typeof l[k] === "string");
    const key = idField ? `${idField.replace(/_?id$/, "") || "item"}:${l[idField] as string}` : `label#${i + 1}`;
    return {
      t: isoInstant(now),
      src: `self:${isoInstant(now)}#${i + 1}`,
      outcome: { key, status: "label", credit: null },
      action: null,
      note: restJson(l, idField ? [idField] : []),
    };
  });
}

/** `memory/records.jsonl`, rewritten by every (re-)run of the episode (so a resume rebuilds it). */
export class RecordsFile {
  private fd: number | null;
  constructor(path: string) {
    this.fd = openSync(path, "w");
  }
  append(rs: readonly OutcomeRecord[]): void {
    if (this.fd === null) throw new Error("internal: records file closed");
    for (const r of rs) writeSync(this.fd, `${JSON.stringify(r)}\n`);
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
