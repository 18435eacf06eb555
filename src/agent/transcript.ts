import type { ChatMessage } from "../models/model.js";
import { messageTokens } from "./token-counter.js";

interface Segment {
  messages: ChatMessage[];
  tokens: number;
}

/** After a drop the transcript is cut to this share of its budget, so drops (and cache misses) are rare. */
export const LOW_WATER = 0.8;

/**
 * The conversation as wake segments: each segment opens with the wake's user marker and holds the
 * assistant and tool messages that follow. Messages are only ever appended to the current segment,
 * so the request prefix stays byte-stable between calls; when the budget is exceeded, whole oldest
 * segments are dropped (never the current one) until the transcript fits in `LOW_WATER` of it.
 * Token counts are computed once per message (cl100k).
 */
export class Transcript {
  private segments: Segment[] = [];
  private total = 0;
  /** whole segments dropped so far */
  dropped = 0;

  /** `onMessage` sees every message appended (the run keeps a full copy on disk; drops never touch it) */
  constructor(private readonly onMessage?: (m: ChatMessage) => void) {}

  begin(marker: string): void {
    this.segments.push({ messages: [], tokens: 0 });
    this.push({ role: "user", content: marker });
  }

  push(m: ChatMessage): void {
    const seg = this.segments.at(-1);
    if (seg === undefined) throw new Error("transcript: push before the first wake segment");
    const n = messageTokens(m);
    seg.messages.push(m);
    this.onMessage?.(m);
    seg.tokens += n;
    this.total += n;
  }

  get tokens(): number {
    return this.total;
  }

  get segmentCount(): number {
    return this.segments.length;
  }

  /** Drops the oldest whole segments while the transcript exceeds `budget` tokens; returns how many. */
  fit(budget: number): number {
    if (this.total <= budget) return 0;
    const target = Math.floor(budget * LOW_WATER);
    let n = 0;
    while (this.segments.length > 1 && this.total > target) {
      const seg = this.segments.shift() as Segment;
      this.total -= seg.tokens;
      n++;
    }
    this.dropped += n;
    return n;
  }

  /** Drops the oldest whole segment (never the current one); returns how many were dropped (0 or 1). */
  dropOldest(): number {
    if (this.segments.length <= 1) return 0;
    const seg = this.segments.shift() as Segment;
    this.total -= seg.tokens;
    this.dropped++;
    return 1;
  }

  /** Drops every segment (the daily reset); returns how many were dropped. */
  clear(): number {
    const n = this.segments.length;
    this.segments = [];
    this.total = 0;
    this.dropped += n;
    return n;
  }

  /** The messages of every kept segment, oldest first (a fresh array; the messages are shared). */
  messages(): ChatMessage[] {
    return this.segments.flatMap((s) => s.messages);
  }

  /** The current (last) segment's messages. */
  current(): readonly ChatMessage[] {
    return this.segments.at(-1)?.messages ?? [];
  }
}
