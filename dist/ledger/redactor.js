class Redactor {
  /** value → placeholder, in insertion order */
  byValue = /* @__PURE__ */ new Map();
  add(name, value) {
    if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw new Error(`secret name "${name}": use [a-z0-9_-]{1,64}`);
    if (value.length === 0 || this.byValue.has(value)) return;
    this.byValue.set(value, `[redacted:${name}]`);
  }
  get size() {
    return this.byValue.size;
  }
  /** a serialized JSON line with every secret replaced by its placeholder */
  redact(line) {
    let out = line;
    for (const [value, placeholder] of this.byValue) {
      const esc = JSON.stringify(value).slice(1, -1);
      out = value.length >= 8 ? out.split(esc).join(placeholder) : out.split(`"${esc}"`).join(`"${placeholder}"`);
    }
    return out;
  }
  /** the inverse of `redact` for the secrets known now */
  restore(line) {
    let out = line;
    for (const [value, placeholder] of this.byValue)
      out = out.split(placeholder).join(JSON.stringify(value).slice(1, -1));
    return out;
  }
}
export {
  Redactor
};
//# sourceMappingURL=redactor.js.map
