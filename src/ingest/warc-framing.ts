/**
 * A framing normalizer in front of warcio's `WARCParser` for uncompressed WARC bytes (gzip input is
 * gunzipped first). It re-emits every record with canonical framing and reports damage:
 * - header lines (the WARC block, and the HTTP block of `application/http` records) ending in a bare
 *   LF get CRLF back (`lfRepaired`): the real CC-MAIN samples had their CRs stripped, which makes
 *   warcio's header reader run to the end of the file (it only looks for CRLFCRLF) or spin;
 *   the declared Content-Length counts the CRLF form, so the repaired block is exactly framed again;
 * - an HTTP header block cut off by the end of the file is closed;
 * - bytes between a block's declared end and the next `WARC/` line (a block longer than declared:
 *   e.g. a payload re-encoded after capture) are dropped and reported against the record;
 * - a file ending inside a block (`short-block`) or inside a record's headers (`cut-headers`) is
 *   reported.
 * Blank lines between records are dropped and CRLFCRLF written after each block.
 */
export interface RecordDamage {
  /** 1-based record number in the file */
  record: number;
  kind: "trailing-bytes" | "short-block" | "cut-headers";
  bytes: number;
}

export interface FramingStats {
  records: number;
  lfRepaired: number;
  damage: RecordDamage[];
}

const CRLF = Buffer.from("\r\n");
const CRLFCRLF = Buffer.from("\r\n\r\n");
const MAX_HEADER_LINE = 1 << 20;

type State = "between" | "warc" | "http" | "body";

export async function* normalizeWarc(
  source: AsyncIterable<Buffer | Uint8Array>,
  stats: FramingStats,
): AsyncGenerator<Buffer> {
  let buf: Buffer = Buffer.alloc(0);
  let state: State = "between";
  let remaining = 0;
  let isHttp = false;
  let lfInRecord = false;
  let garbage = 0;
  const it = source[Symbol.asyncIterator]();
  let eof = false;
  const more = async (): Promise<boolean> => {
    if (eof) return false;
    const n = await it.next();
    if (n.done) {
      eof = true;
      return false;
    }
    buf = buf.length === 0 ? Buffer.from(n.value) : Buffer.concat([buf, n.value]);
    return true;
  };
  /** the file ends inside a record's headers: the whole remaining block is missing */
  const cutShort = () => {
    stats.damage.push({ record: stats.records, kind: "cut-headers", bytes: Math.max(remaining, 0) });
  };
  const endRecord = () => {
    if (lfInRecord) stats.lfRepaired++;
    lfInRecord = false;
  };
  /** the next line without its terminator, or null at EOF with nothing left; `lf` = ended by a bare LF */
  const line = async (): Promise<{ text: Buffer; lf: boolean; eofCut: boolean } | null> => {
    for (;;) {
      const i = buf.indexOf(10);
      if (i >= 0) {
        const cr = i > 0 && buf[i - 1] === 13;
        const text = buf.subarray(0, cr ? i - 1 : i);
        buf = buf.subarray(i + 1);
        return { text, lf: !cr, eofCut: false };
      }
      if (buf.length > MAX_HEADER_LINE || !(await more())) {
        if (buf.length === 0) return null;
        const text = buf;
        buf = Buffer.alloc(0);
        return { text, lf: false, eofCut: true };
      }
    }
  };
  for (;;) {
    switch (state) {
      case "between": {
        const l = await line();
        if (l === null) {
          if (garbage > 0) stats.damage.push({ record: stats.records, kind: "trailing-bytes", bytes: garbage });
          return;
        }
        if (l.text.length === 0 && !l.eofCut) continue;
        if (l.text.subarray(0, 5).toString("latin1") === "WARC/") {
          if (garbage > 0) stats.damage.push({ record: stats.records, kind: "trailing-bytes", bytes: garbage });
          garbage = 0;
          stats.records++;
          remaining = 0;
          isHttp = false;
          lfInRecord = l.lf;
          state = "warc";
          yield Buffer.concat([l.text, CRLF]);
        } else garbage += l.text.length + (l.eofCut ? 0 : l.lf ? 1 : 2);
        break;
      }
      case "warc":
      case "http": {
        const l = await line();
        if (l === null || (l.eofCut && l.text.length === 0)) {
          // the file ends inside a header block: close it
          cutShort();
          yield CRLF;
          if (state === "http") yield CRLFCRLF;
          endRecord();
          state = "between";
          break;
        }
        if (l.lf) lfInRecord = true;
        if (state === "warc") {
          if (l.text.length === 0) {
            yield CRLF;
            state = isHttp ? "http" : "body";
            if (remaining === 0 && !isHttp) {
              yield CRLFCRLF;
              endRecord();
              state = "between";
            }
            break;
          }
          const s = l.text.toString("latin1");
          const c = s.indexOf(":");
          if (c > 0) {
            const name = s.slice(0, c).trim().toLowerCase();
            const value = s.slice(c + 1).trim();
            if (name === "content-length") remaining = Number.parseInt(value, 10) || 0;
            else if (name === "content-type") isHttp = value.toLowerCase().startsWith("application/http");
          }
          yield Buffer.concat([l.text, CRLF]);
          if (l.eofCut) {
            cutShort();
            yield CRLF;
            endRecord();
            state = "between";
          }
        } else {
          const out = Buffer.concat([l.text, CRLF]);
          remaining -= out.length;
          yield out;
          if (l.text.length === 0 || remaining <= 0) {
            state = "body";
            if (remaining <= 0) {
              remaining = 0;
              yield CRLFCRLF;
              endRecord();
              state = "between";
            }
          } else if (l.eofCut) {
            // an HTTP header block without its blank line at EOF (news18 test-request.warc): closed, reported
            cutShort();
            yield CRLF;
            yield CRLFCRLF;
            endRecord();
            state = "between";
          }
        }
        break;
      }
      case "body": {
        if (buf.length === 0 && !(await more())) {
          stats.damage.push({ record: stats.records, kind: "short-block", bytes: remaining });
          endRecord();
          return;
        }
        const n = Math.min(remaining, buf.length);
        const chunk = buf.subarray(0, n);
        buf = buf.subarray(n);
        remaining -= n;
        if (chunk.length > 0) yield Buffer.from(chunk);
        if (remaining === 0) {
          yield CRLFCRLF;
          endRecord();
          state = "between";
        }
        break;
      }
    }
  }
}
