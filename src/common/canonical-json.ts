/** Canonical JSON (object keys sorted, `undefined` members dropped) and its sha256, for request hashes. */
import { createHash } from "node:crypto";

export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== "object") {
    const s = JSON.stringify(v);
    return s === undefined ? "null" : s;
  }
  // built by concatenation, without the intermediate arrays of map/filter/join: every ledger line
  // goes through here (same output as `[${v.map(...).join(",")}]`, holes included: a hole is empty)
  if (Array.isArray(v)) {
    let s = "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ",";
      if (i in v) {
        const x: unknown = v[i];
        s += x === undefined ? "null" : canonicalJson(x);
      }
    }
    return `${s}]`;
  }
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec);
  // most objects arrive with their keys in order already, and the rest are small: sorted in place
  // (Array.prototype.sort allocates a work copy on every call; a ledger line sorts a few objects)
  if (keys.length > 16) keys.sort();
  else
    for (let i = 1; i < keys.length; i++) {
      const k = keys[i]!;
      let j = i - 1;
      while (j >= 0 && keys[j]! > k) {
        keys[j + 1] = keys[j]!;
        j--;
      }
      keys[j + 1] = k;
    }
  let s = "{";
  let first = true;
  for (const k of keys) {
    const x = rec[k];
    if (x === undefined) continue;
    if (first) first = false;
    else s += ",";
    s += `${JSON.stringify(k)}:${canonicalJson(x)}`;
  }
  return `${s}}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
