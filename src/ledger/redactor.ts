/**
 * Secrets of a run (credentials from the config, one-time codes a web host issues) kept out of every
 * log: the ledger and llm.jsonl are written with each secret replaced by `[redacted:<name>]`, and a
 * replayed llm.jsonl gets the values back when its replies are used. A secret of 8 characters or more
 * is replaced wherever it occurs; a shorter one only where it is a whole JSON string (so a 6-digit code
 * never clobbers a number or a hash that happens to contain its digits).
 */
interface Secret {
  placeholder: string;
  /** the value as it appears inside a JSON string */
  esc: string;
  /** 8 characters or more: replaced wherever it occurs */
  long: boolean;
}

export class Redactor {
  /** value → its secret, in insertion order */
  private readonly byValue = new Map<string, Secret>();

  add(name: string, value: string): void {
    if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw new Error(`secret name "${name}": use [a-z0-9_-]{1,64}`);
    if (value.length === 0 || this.byValue.has(value)) return;
    this.byValue.set(value, {
      placeholder: `[redacted:${name}]`,
      esc: JSON.stringify(value).slice(1, -1),
      long: value.length >= 8,
    });
  }

  get size(): number {
    return this.byValue.size;
  }

  /**
   * a serialized JSON line with every secret replaced by its placeholder, in insertion order. A
   * short secret whose escaped form holds no `"` occurs as a whole JSON string exactly when it is
   * the text between two consecutive quotes of the line: those texts are collected once, so a line
   * costs one set lookup per such secret instead of a scan (a run that mails a one-time code a day
   * holds hundreds of them). A replacement never adds such a text: any text it creates between two
   * quotes holds a placeholder (≥ 12 characters), longer than a short secret (tested against the
   * plain scan).
   */
  redact(line: string): string {
    let out = line;
    let quoted: Set<string> | null = null;
    for (const { placeholder, esc, long } of this.byValue.values()) {
      if (long) {
        if (out.includes(esc)) out = out.split(esc).join(placeholder);
        continue;
      }
      if (!esc.includes('"')) {
        quoted ??= new Set(out.split('"'));
        if (!quoted.has(esc)) continue;
      }
      out = out.split(`"${esc}"`).join(`"${placeholder}"`);
    }
    return out;
  }

  /** the inverse of `redact` for the secrets known now */
  restore(line: string): string {
    let out = line;
    for (const { placeholder, esc } of this.byValue.values()) out = out.split(placeholder).join(esc);
    return out;
  }
}
