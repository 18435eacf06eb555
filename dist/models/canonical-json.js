import { createHash } from "node:crypto";
function canonicalJson(v) {
  if (v === null || typeof v !== "object") {
    const s = JSON.stringify(v);
    return s === void 0 ? "null" : s;
  }
  if (Array.isArray(v)) return `[${v.map((x) => x === void 0 ? "null" : canonicalJson(x)).join(",")}]`;
  const rec = v;
  const keys = Object.keys(rec).filter((k) => rec[k] !== void 0).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(rec[k])}`).join(",")}}`;
}
function sha256Hex(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
export {
  canonicalJson,
  sha256Hex
};
//# sourceMappingURL=canonical-json.js.map
