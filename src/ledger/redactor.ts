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
  /** the secrets in insertion order */
  private readonly ordered: Secret[] = [];
  /** position in `ordered` of the first short secret holding no `"` (none: -1) */
  private firstShort = -1;
  /** positions of the secrets every line is checked for: long ones, and short ones holding a `"` */
  private readonly scanned: number[] = [];
  /** a short secret's escaped form (holding no `"`) → its position in `ordered` */
  private readonly shortByEsc = new Map<string, number>();

  add(name: string, value: string): void {
    if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw new Error(`secret name "${name}": use [a-z0-9_-]{1,64}`);
    if (value.length === 0 || this.byValue.has(value)) return;
    const secret: Secret = {
      placeholder: `[redacted:${name}]`,
      esc: JSON.stringify(value).slice(1, -1),
      long: value.length >= 8,
    };
    const at = this.ordered.length;
    this.byValue.set(value, secret);
    this.ordered.push(secret);
    if (secret.long || secret.esc.includes('"')) this.scanned.push(at);
    else {
      if (this.firstShort < 0) this.firstShort = at;
      this.shortByEsc.set(secret.esc, at);
    }
  }

  get size(): number {
    return this.byValue.size;
  }

  /**
   * a serialized JSON line with every secret replaced by its placeholder, in insertion order. A
   * short secret whose escaped form holds no `"` occurs as a whole JSON string exactly when it is
   * the text between two consecutive quotes of the line: those texts are collected once (when the
   * first such secret's turn comes), and only the short secrets among them are applied, so a line costs one map
   * lookup per quoted text instead of one per secret (a run that mails a one-time code a day holds
   * hundreds of them). A replacement never adds such a text: any text it creates between two quotes
   * holds a placeholder (≥ 12 characters), longer than a short secret (tested against the plain scan).
   */
  redact(line: string): string {
    let out = line;
    const first = this.firstShort < 0 ? this.ordered.length : this.firstShort;
    let k = 0;
    const scanned = this.scanned;
    // the secrets before the first short one holding no `"` are all scanned
    for (; k < scanned.length && (scanned[k] as number) < first; k++) out = this.apply(out, scanned[k] as number);
    if (first === this.ordered.length) return out;
    const hits: number[] = [];
    for (const q of new Set(out.split('"'))) {
      const at = this.shortByEsc.get(q);
      if (at !== undefined) hits.push(at);
    }
    hits.sort((a, b) => a - b);
    // the rest of the scanned and the short secrets found, merged in insertion order
    let h = 0;
    while (k < scanned.length || h < hits.length) {
      const next =
        h >= hits.length || (k < scanned.length && (scanned[k] as number) < (hits[h] as number))
          ? (scanned[k++] as number)
          : (hits[h++] as number);
      out = this.apply(out, next);
    }
    return out;
  }

  private apply(out: string, at: number): string {
    const { placeholder, esc, long } = this.ordered[at] as Secret;
    if (long) return out.includes(esc) ? out.split(esc).join(placeholder) : out;
    return out.split(`"${esc}"`).join(`"${placeholder}"`);
  }

  /** the inverse of `redact` for the secrets known now */
  restore(line: string): string {
    let out = line;
    for (const { placeholder, esc } of this.byValue.values()) out = out.split(placeholder).join(esc);
    return out;
  }
}
