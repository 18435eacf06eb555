import { describe, expect, it } from "vitest";
import { formatQuestionLint, readQuestionLint } from "../../../src/world/question-lint.js";
import { buildTiny, d, q } from "./fixtures.js";

describe("question-set leakage lint (run by every world build with questions)", () => {
  it("reports answers that appear verbatim in another question's title or background, and early releases", () => {
    const dir = buildTiny({
      questions: [
        q("who", d(0), d(5), { title: "Who will chair the Carvanian central bank?", answer_type: "open" }),
        q("hint", d(1), d(6), {
          title: "Will Mira Okafor's first rate decision be a cut?",
          background: "Mira Okafor (new chair) meets the board in April.",
        }),
        q("self", d(0), d(5), { title: "Will Mira Okafor resign?", answer_type: "binary" }),
        q("city", d(0), d(5), { title: "Which city hosts the summit?", answer_type: "open" }),
        q("other", d(0), d(5), { title: "Will Parisians vote?", background: "Turnout in Paris-area towns" }),
        q("early", d(2), d(6), { visible_at: d(1) }),
      ],
      answers: [
        { question: "who", answer: "Mira Okafor", resolved_at: d(5) },
        { question: "self", answer: "No", resolved_at: d(5) },
        { question: "city", answer: "Paris", resolved_at: d(5) },
        { question: "early", answer: "Yes", resolved_at: d(6) },
        { question: "other", answer: "x", resolved_at: d(5) },
      ],
    });
    const lint = readQuestionLint(dir)!;
    expect(lint).toMatchObject({
      questions: 6,
      answers: 5,
      checked: 2,
      skipped: { label: 2, short: 1 },
      leak_count: 4,
      released_before_open: ["early"],
    });
    expect(lint.leaks.map((l) => [l.question, l.in_question, l.field])).toEqual([
      ["city", "other", "background"],
      ["who", "hint", "title"],
      ["who", "hint", "background"],
      ["who", "self", "title"],
    ]);
    // word boundaries: "Parisians" does not contain the answer "Paris"; "Paris-area" does
    expect(lint.leaks[0]!.excerpt).toBe("Turnout in Paris-area towns");
    const text = formatQuestionLint(lint);
    expect(text.split("\n")[0]).toBe(
      "question lint: 6 questions, 5 with answers; 2 answers checked (2 binary labels and 1 short answers not checked); 4 leaks; 1 released before open",
    );
    expect(text).toContain('who: answer "Mira Okafor" appears in hint\'s title');
    expect(text).toContain("early: visible before its open date");
  });

  it("a world without questions writes no lint file", () => {
    expect(readQuestionLint(buildTiny({ questions: [] }))).toBeNull();
  });
});
