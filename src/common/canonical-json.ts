/** Canonical JSON (object keys sorted, `undefined` members dropped) and its sha256, for request hashes. */
import { createHash } from "node:crypto";

/**
 * The canonical text: scalars as `JSON.stringify` writes them (`undefined`, functions and symbols
 * as `null`), arrays in order (an `undefined` element as `null`, a hole as nothing), objects with
 * their own enumerable keys sorted (UTF-16 order) and `undefined` members dropped. Written into one
 * string as it walks (a request of a 60k-token context is hashed on every model call).
 */
export function canonicalJson(v: unknown): string {
  let out = "";
  const write = (x: unknown): void => {
    if (x === null || typeof x !== "object") {
      const s = JSON.stringify(x);
      out += s === undefined ? "null" : s;
      return;
    }
    if (Array.isArray(x)) {
      out += "[";
      for (let i = 0; i < x.length; i++) {
        if (i > 0) out += ",";
        if (!(i in x)) continue;
        const e: unknown = x[i];
        if (e === undefined) out += "null";
        else write(e);
      }
      out += "]";
      return;
    }
    const rec = x as Record<string, unknown>;
    const keys = Object.keys(rec);
    let sorted = true;
    for (let i = 1; i < keys.length; i++)
      if ((keys[i - 1] as string) > (keys[i] as string)) {
        sorted = false;
        break;
      }
    if (!sorted) keys.sort();
    out += "{";
    let first = true;
    for (const k of keys) {
      const m = rec[k];
      if (m === undefined) continue;
      if (!first) out += ",";
      first = false;
      out += JSON.stringify(k);
      out += ":";
      write(m);
    }
    out += "}";
  };
  write(v);
  return out;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
