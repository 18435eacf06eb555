import type { FundingInput, StopInput } from "../instructions.js";

export interface StopRecord extends StopInput {
  /** `SO-0001`, … in submission order */
  id: string;
  submitted_at: number;
  /** the mark the site showed at submission (null when no candle was visible) */
  mark: number | null;
}

export interface FundingRecord extends FundingInput {
  /** `FI-0001`, … in submission order */
  id: string;
  submitted_at: number;
}

/** The desk's instructions recorded by the broker site in this run (rebuilt by re-running on resume). */
export class DeskRecords {
  readonly stops: StopRecord[] = [];
  readonly funding: FundingRecord[] = [];

  addStop(s: StopInput, t: number, mark: number | null): StopRecord {
    const r = { id: `SO-${String(this.stops.length + 1).padStart(4, "0")}`, ...s, submitted_at: t, mark };
    this.stops.push(r);
    return r;
  }

  addFunding(f: FundingInput, t: number): FundingRecord {
    const r = { id: `FI-${String(this.funding.length + 1).padStart(4, "0")}`, ...f, submitted_at: t };
    this.funding.push(r);
    return r;
  }
}
