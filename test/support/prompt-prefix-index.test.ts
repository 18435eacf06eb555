import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { describe, expect, it } from "vitest";
import { commonPrefixLength, PromptPrefixIndex } from "./prompt-prefix-index.js";

const encoder = new Tiktoken(cl100k);
const tokenize = (text: string) => encoder.encode(text);

/** the plain computation the index replaces: tokenize the joined prompt, compare it with every earlier one */
function plain() {
  const earlier: number[][] = [];
  return (lines: readonly string[]) => {
    const ids = tokenize(lines.join("\n"));
    let common = 0;
    for (const p of earlier) common = Math.max(common, commonPrefixLength(p, ids));
    earlier.push(ids);
    return { promptTokens: ids.length, common };
  };
}

/** text that stresses the pre-tokenizer at line ends: spaces, newlines, digits, punctuation, letters, non-ASCII */
const text = fc.string({ unit: fc.constantFrom(..."ab z09 \n\t{}[]\":,.!?'’é中-", "🙂"), maxLength: 40 });
/** a JSON line as a request carries one (a message or a tool: any JSON value) */
const line = fc
  .oneof(
    fc.record({ role: fc.constantFrom("user", "assistant", "tool", "system"), content: text }),
    fc.record({ role: fc.constant("tool"), tool_call_id: text, content: text }),
    fc.record({ type: fc.constant("function"), function: fc.record({ name: text, description: text }) }),
    fc.jsonValue({ maxDepth: 2 }),
    text,
    fc.integer(),
  )
  .map((v) => JSON.stringify(v));

/**
 * Prompts as an agent sends them: each one continues an earlier prompt cut at some line (a longer
 * conversation, a retry, a dropped reply) or drops a run of early messages (a context cut), plus new lines.
 */
const conversation = fc
  .array(
    fc.record({
      from: fc.nat(),
      cut: fc.nat(),
      drop: fc.nat({ max: 3 }),
      extra: fc.array(line, { maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((steps) => {
    const prompts: string[][] = [];
    for (const s of steps) {
      const base = prompts.length ? (prompts[s.from % prompts.length] as string[]) : [];
      const kept = base.slice(0, base.length ? s.cut % (base.length + 1) : 0);
      const dropped = kept.length > 2 ? [...kept.slice(0, 1), ...kept.slice(1 + (s.drop % (kept.length - 1)))] : kept;
      prompts.push([...dropped, ...s.extra]);
    }
    return prompts;
  });

describe("PromptPrefixIndex: the OpenAI test server's prompt tokens and longest common prefix, incrementally", () => {
  it("exact values", () => {
    const idx = new PromptPrefixIndex(tokenize);
    const a = ['{"role":"system","content":"rules"}', '{"role":"user","content":"one"}'];
    const first = idx.add(a);
    expect(first).toEqual({ promptTokens: tokenize(a.join("\n")).length, common: 0 });
    expect(idx.add(a)).toEqual({ promptTokens: first.promptTokens, common: first.promptTokens });
    const b = [...a, '{"role":"assistant","content":"ok"}'];
    const second = idx.add(b);
    expect(second.promptTokens).toBe(tokenize(b.join("\n")).length);
    expect(second.common).toBe(commonPrefixLength(tokenize(a.join("\n")), tokenize(b.join("\n"))));
    expect(idx.add([])).toEqual({ promptTokens: 0, common: 0 });
  });

  it("property: the same counts and prefixes as tokenizing every prompt whole and comparing it with every earlier one", () => {
    let shared = 0;
    fc.assert(
      fc.property(conversation, (prompts) => {
        const idx = new PromptPrefixIndex(tokenize);
        const ref = plain();
        for (const [i, p] of prompts.entries()) {
          const want = ref(p);
          expect(idx.add(p), `prompt ${i}: ${JSON.stringify(p)}`).toEqual(want);
          if (want.common > 0) shared++;
        }
      }),
      { numRuns: 400, seed: 20261207 },
    );
    expect(shared).toBeGreaterThan(500);
  });
});
