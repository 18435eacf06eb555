import { existsSync, readFileSync, truncateSync } from "node:fs";
import { LedgerEvent } from "./events.js";
class LedgerFormatError extends Error {
  constructor(path, line, reason) {
    super(`${path}:${line}: not a valid ledger event: ${reason}`);
    this.name = "LedgerFormatError";
  }
}
function readLedgerLines(path, opts = {}) {
  if (!existsSync(path)) throw new Error(`no ledger at ${path}`);
  const text = readFileSync(path, "utf8");
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length && opts.repair) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  return end === 0 ? [] : text.slice(0, end - 1).split("\n");
}
function readLedger(path) {
  return readLedgerLines(path).map((line, i) => {
    let json;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new LedgerFormatError(path, i + 1, err.message);
    }
    const parsed = LedgerEvent.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LedgerFormatError(path, i + 1, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
    if (parsed.data.seq !== i) throw new LedgerFormatError(path, i + 1, `seq ${parsed.data.seq} out of order`);
    return parsed.data;
  });
}
export {
  LedgerFormatError,
  readLedger,
  readLedgerLines
};
//# sourceMappingURL=ledger-reader.js.map
