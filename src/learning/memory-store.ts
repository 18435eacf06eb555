import { closeSync, openSync, writeSync } from "node:fs";
import { DAY_MS, isoInstant, startOfUtcDay } from "../common/time.js";

/** One memory note as the agent appended it: general (`item` null) or about one item (a question, a market, a ticker). */
export interface MemoryNote {
  at: number;
  actor: string;
  item: string | null;
  text: string;
}

/** An actor's memory at some instant: general notes and notes per item, oldest first. */
export interface MemoryView {
  general: MemoryNote[];
  items: Record<string, MemoryNote[]>;
}

/**
 * The harness's memory store (`agent.memory_tools`): an append-only log of the agents' notes,
 * generalized from open-forecast's memory log. A past day's memory is the log replayed up to that
 * day's end (00:00 UTC of the next day, exclusive): notes carry the simulated time and time only
 * moves forward, so a past day's snapshot can never change. Each actor sees only its own notes.
 *
 * The log lives in the run directory (`<run>/memory/notes.jsonl`, beside the ledger, never inside the
 * workspace the agent's file tools reach: nothing else can edit it) and is rewritten by every
 * (re-)run, so a resumed run rebuilds it deterministically from the replayed episode.
 */
export class MemoryStore {
  private readonly log: MemoryNote[] = [];
  private fd: number | null = null;

  /** `file`: the run's `memory/notes.jsonl` (truncated now), or null to keep the log in memory only */
  constructor(file: string | null = null) {
    if (file !== null) this.fd = openSync(file, "w");
  }

  append(n: MemoryNote): void {
    const last = this.log.at(-1);
    if (last && n.at < last.at) throw new Error("internal: memory notes must come in time order");
    this.log.push(n);
    if (this.fd !== null)
      writeSync(this.fd, `${JSON.stringify({ t: isoInstant(n.at), actor: n.actor, item: n.item, note: n.text })}\n`);
  }

  /** `actor`'s memory after every note with `at < before` */
  before(actor: string, before: number): MemoryView {
    const v: MemoryView = { general: [], items: {} };
    for (const n of this.log) {
      if (n.at >= before) break;
      if (n.actor !== actor) continue;
      if (n.item === null) v.general.push(n);
      else {
        const list = v.items[n.item] ?? [];
        list.push(n);
        v.items[n.item] = list;
      }
    }
    return v;
  }

  /** `actor`'s memory as it stood at the end of the UTC day holding `day` */
  snapshot(actor: string, day: number): MemoryView {
    return this.before(actor, startOfUtcDay(day) + DAY_MS);
  }

  /** notes `actor` has written (all days) */
  count(actor: string): number {
    return this.log.reduce((s, n) => s + (n.actor === actor ? 1 : 0), 0);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
