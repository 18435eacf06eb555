import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Redactor } from "../../src/ledger/redactor.js";

describe("secrets never reach a log", () => {
  it("long secrets are replaced anywhere, short ones only as whole JSON strings, and restored", () => {
    const r = new Redactor();
    r.add("password", 'hunter2-"quoted"');
    r.add("code", "123456");
    const line = JSON.stringify({
      args: { text: 'hunter2-"quoted"', note: 'pw=hunter2-"quoted"!' },
      code: "123456",
      hash: "ab123456cd",
      n: 1234567,
    });
    const red = r.redact(line);
    expect(JSON.parse(red)).toEqual({
      args: { text: "[redacted:password]", note: "pw=[redacted:password]!" },
      code: "[redacted:code]",
      hash: "ab123456cd",
      n: 1234567,
    });
    expect(r.restore(red)).toBe(line);
  });

  it("the ledger file is redacted (and compared redacted on resume) while listeners see the real event", () => {
    const path = join(mkdtempSync(join(tmpdir(), "relive-redact-")), "ledger.jsonl");
    const r = new Redactor();
    r.add("password", "correct horse battery");
    const w = LedgerWriter.create(path);
    w.redactWith(r);
    const seen: string[] = [];
    w.subscribe((e) => seen.push(JSON.stringify(e)));
    w.append({ type: "note", t: 0, kind: "x", message: "typed correct horse battery" });
    w.close();
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain("correct horse");
    expect(text).toContain("typed [redacted:password]");
    expect(seen[0]).toContain("correct horse battery");
    const again = LedgerWriter.verifying(path, text.trim().split("\n"));
    again.redactWith(r);
    expect(() => again.append({ type: "note", t: 0, kind: "x", message: "typed correct horse battery" })).not.toThrow();
    again.close();
  });

  it("refuses names that could not round-trip", () => {
    expect(() => new Redactor().add("Pass Word", "x")).toThrow(/secret name/);
  });
});

/** the plain definition: every secret in insertion order, scanned for in the whole line */
function redactByScan(secrets: readonly [string, string][], line: string): string {
  let out = line;
  for (const [name, value] of secrets) {
    const esc = JSON.stringify(value).slice(1, -1);
    const placeholder = `[redacted:${name}]`;
    out = value.length >= 8 ? out.split(esc).join(placeholder) : out.split(`"${esc}"`).join(`"${placeholder}"`);
  }
  return out;
}

describe("redaction by set lookup equals the plain scan", () => {
  // a small alphabet with quotes and backslashes, so secrets overlap, nest and sit inside or across JSON strings
  const text = fc.string({ unit: fc.constantFrom("1", "2", "a", '"', "\\", " ", "x"), maxLength: 10 });
  it("for any secrets and any line (JSON or not)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom("code", "pw", "otp-1"),
            text.filter((v) => v.length > 0),
          ),
          { maxLength: 8 },
        ),
        fc.array(fc.oneof(text, fc.constant("")), { maxLength: 6 }),
        fc.boolean(),
        (secrets, parts, asJson) => {
          const r = new Redactor();
          const kept: [string, string][] = [];
          for (const [name, value] of secrets) {
            if (!kept.some(([, v]) => v === value)) kept.push([name, value]);
            r.add(name, value);
          }
          const line = asJson ? JSON.stringify({ parts, also: parts.join("") }) : parts.join('"');
          expect(r.redact(line)).toBe(redactByScan(kept, line));
        },
      ),
      { numRuns: 3000, seed: 20261202 },
    );
  });
});
