import { messageTokens } from "./token-counter.js";
const LOW_WATER = 0.8;
class Transcript {
  /** `onMessage` sees every message appended (the run keeps a full copy on disk; drops never touch it) */
  constructor(onMessage) {
    this.onMessage = onMessage;
  }
  onMessage;
  segments = [];
  total = 0;
  /** whole segments dropped so far */
  dropped = 0;
  begin(marker) {
    this.segments.push({ messages: [], tokens: 0 });
    this.push({ role: "user", content: marker });
  }
  push(m) {
    const seg = this.segments.at(-1);
    if (seg === void 0) throw new Error("transcript: push before the first wake segment");
    const n = messageTokens(m);
    seg.messages.push(m);
    this.onMessage?.(m);
    seg.tokens += n;
    this.total += n;
  }
  get tokens() {
    return this.total;
  }
  get segmentCount() {
    return this.segments.length;
  }
  /** Drops the oldest whole segments while the transcript exceeds `budget` tokens; returns how many. */
  fit(budget) {
    if (this.total <= budget) return 0;
    const target = Math.floor(budget * LOW_WATER);
    let n = 0;
    while (this.segments.length > 1 && this.total > target) {
      const seg = this.segments.shift();
      this.total -= seg.tokens;
      n++;
    }
    this.dropped += n;
    return n;
  }
  /** Drops the oldest whole segment (never the current one); returns how many were dropped (0 or 1). */
  dropOldest() {
    if (this.segments.length <= 1) return 0;
    const seg = this.segments.shift();
    this.total -= seg.tokens;
    this.dropped++;
    return 1;
  }
  /** The messages of every kept segment, oldest first (a fresh array; the messages are shared). */
  messages() {
    return this.segments.flatMap((s) => s.messages);
  }
  /** The current (last) segment's messages. */
  current() {
    return this.segments.at(-1)?.messages ?? [];
  }
}
export {
  LOW_WATER,
  Transcript
};
//# sourceMappingURL=transcript.js.map
