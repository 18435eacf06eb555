import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { peekCost, peekLine } from "../../src/web/line-peek.js";
import { completeEnd, scanBackward, scanForward } from "../../src/web/line-scan.js";

const dir = mkdtempSync(join(tmpdir(), "relive-web-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Complete lines of `text` with their byte offsets, the torn tail excluded. */
function reference(text: string): { line: string; offset: number }[] {
  const buf = Buffer.from(text);
  const out: { line: string; offset: number }[] = [];
  let s = 0;
  for (let i = 0; i < buf.length; i++)
    if (buf[i] === 10) {
      out.push({ line: buf.toString("utf8", s, i), offset: s });
      s = i + 1;
    }
  return out;
}

const lineArb = fc.string({ unit: fc.constantFrom("a", "b", "é", "{", '"', "😀", " "), maxLength: 40 });

describe("line scans", () => {
  it("visit exactly the complete lines, in order, at their offsets, for any chunk size (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { maxLength: 30 }),
        lineArb,
        fc.integer({ min: 1, max: 64 }),
        async (lines, tail, chunk) => {
          const text = lines.map((l) => `${l}\n`).join("") + tail;
          const path = join(dir, `f${n++}.jsonl`);
          writeFileSync(path, text);
          const fh = await open(path, "r");
          try {
            const size = Buffer.byteLength(text);
            const end = await completeEnd(fh, size, chunk);
            const ref = reference(text);
            expect(end).toBe(ref.length === 0 ? 0 : ref.at(-1)!.offset + Buffer.byteLength(ref.at(-1)!.line) + 1);
            const fwd: { line: string; offset: number }[] = [];
            const stop = await scanForward(
              fh,
              0,
              size,
              (b, s, e, off) => {
                fwd.push({ line: b.toString("utf8", s, e), offset: off });
                return true;
              },
              chunk,
            );
            expect(fwd).toEqual(ref);
            expect(stop).toBe(end);
            const back: { line: string; offset: number }[] = [];
            await scanBackward(
              fh,
              end,
              0,
              (b, s, e, off) => {
                back.push({ line: b.toString("utf8", s, e), offset: off });
                return true;
              },
              chunk,
            );
            expect(back).toEqual([...ref].reverse());
            // starting mid-file at a line start, stopping early
            if (ref.length >= 3) {
              const got: string[] = [];
              await scanForward(
                fh,
                ref[1]!.offset,
                end,
                (b, s, e) => {
                  got.push(b.toString("utf8", s, e));
                  return got.length < 2;
                },
                chunk,
              );
              expect(got).toEqual([ref[1]!.line, ref[2]!.line]);
            }
          } finally {
            await fh.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("line peeks", () => {
  const b = (s: string) => Buffer.from(s);
  it("read seq, type and t from the writer's layout and from any other layout", () => {
    const canonical = b(
      '{"seq":12,"type":"tool_call","t":-5,"actor":"a","tool":"x","args":{"cost_usd":9},"status":"ok","cost_usd":0.25,"domain":"d"}',
    );
    expect(peekLine(canonical, 0, canonical.length)).toEqual({ seq: 12, type: "tool_call", t: -5 });
    expect(peekCost(canonical, 0, canonical.length)).toBe(0.25);
    const reordered = b('{"t":7,"type":"wake","seq":3,"actor":"a","reason":"sleep"}');
    expect(peekLine(reordered, 0, reordered.length)).toEqual({ seq: 3, type: "wake", t: 7 });
    const noCostKey = b('{"seq":1,"type":"llm_call","t":1,"cost_usd":"x"}');
    expect(peekCost(noCostKey, 0, noCostKey.length)).toBe(0);
    for (const bad of ["not json", "[1,2]", '{"seq":1,"type":"wake"}', ""])
      expect(peekLine(b(bad), 0, Buffer.byteLength(bad))).toBeNull();
  });
});
