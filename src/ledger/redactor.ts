/**
 * Secrets of a run (credentials from the config, one-time codes a web host issues) kept out of every
 * log: the ledger and llm.jsonl are written with each secret replaced by `[redacted:<name>]`, and a
 * replayed llm.jsonl gets the values back when its replies are used. A secret of 8 characters or more
 * is replaced wherever it occurs; a shorter one only where it is a whole JSON string (so a 6-digit code
 * never clobbers a number or a hash that happens to contain its digits).
 */
export class Redactor {
  /** value → placeholder, in insertion order */
  private readonly byValue = new Map<string, string>();

  add(name: string, value: string): void {
    if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw new Error(`secret name "${name}": use [a-z0-9_-]{1,64}`);
    if (value.length === 0 || this.byValue.has(value)) return;
    this.byValue.set(value, `[redacted:${name}]`);
  }

  get size(): number {
    return this.byValue.size;
  }

  /** a serialized JSON line with every secret replaced by its placeholder */
  redact(line: string): string {
    let out = line;
    for (const [value, placeholder] of this.byValue) {
      const esc = JSON.stringify(value).slice(1, -1);
      out = value.length >= 8 ? out.split(esc).join(placeholder) : out.split(`"${esc}"`).join(`"${placeholder}"`);
    }
    return out;
  }

  /** the inverse of `redact` for the secrets known now */
  restore(line: string): string {
    let out = line;
    for (const [value, placeholder] of this.byValue)
      out = out.split(placeholder).join(JSON.stringify(value).slice(1, -1));
    return out;
  }
}
