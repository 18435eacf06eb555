import { open } from "node:fs/promises";
import { parseLine, peekLine } from "./line-peek.js";
import { completeEnd, scanBackward, scanForward } from "./line-scan.js";
const SMALL_CHUNK = 64 * 1024;
async function readLedgerTail(path, briefWindowBytes = 4 * 1024 * 1024) {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const end = await completeEnd(fh, size);
    let first = null;
    await scanForward(
      fh,
      0,
      end,
      (buf, s, e) => {
        const v = parseLine(buf, s, e);
        first = v !== null && typeof v === "object" && !Array.isArray(v) ? v : null;
        return false;
      },
      SMALL_CHUNK
    );
    let last = null;
    let brief = null;
    let scanned = 0;
    await scanBackward(
      fh,
      end,
      0,
      (buf, s, e) => {
        const p = peekLine(buf, s, e);
        if (last === null) last = p === null ? null : { seq: p.seq, type: p.type, t: p.t };
        if (p?.type === "daily_brief") {
          brief = parseLine(buf, s, e);
          return false;
        }
        scanned += e - s + 1;
        return scanned < briefWindowBytes;
      },
      SMALL_CHUNK
    );
    return { size, torn_bytes: size - end, first, last, brief };
  } finally {
    await fh.close();
  }
}
export {
  readLedgerTail
};
//# sourceMappingURL=ledger-tail.js.map
