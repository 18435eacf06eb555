import { describe, expect, it } from "vitest";
import { lessonProblem, namesIn, worldTermsOf } from "../../src/learning/lessons.js";

describe("lesson checks", () => {
  const terms = worldTermsOf(["q-7f3a9c", "BTC-USD"], ["Acme Corp beats estimates as Fed holds rates", "answer Yes"]);

  it("collects ids and names from what the curator saw", () => {
    expect([...terms].sort()).toEqual(["Acme", "BTC-USD", "Corp", "Fed", "q-7f3a9c"].sort());
    expect(namesIn("Prices rose. Then NVDA fell while Apple held")).toEqual(["Prices", "Then", "NVDA", "Apple"]);
  });

  it("accepts generalized lessons", () => {
    for (const l of [
      "Revisit standing forecasts when a question's resolution date is near.",
      "Answers resolving Yes were rarer than the crowd implied: shade toward the base rate.",
      "Search before committing; one query rarely suffices.",
      "Keep probabilities between 0.05 and 0.95 unless the answer is public.",
    ])
      expect(lessonProblem(l, terms)).toBeNull();
  });

  it("rejects dates, prices, ids and entity names from the world", () => {
    expect(lessonProblem("Markets moved on 2026-03-02.", terms)).toMatch(/date/);
    expect(lessonProblem("Expect news around March 3.", terms)).toMatch(/date/);
    expect(lessonProblem("Sell above $70 next time.", terms)).toMatch(/price/);
    expect(lessonProblem("A level of 67,500 is resistance.", terms)).toMatch(/price/);
    expect(lessonProblem("Question q-7f3a9c resolved early.", terms)).toMatch(/q-7f3a9c/);
    expect(lessonProblem("Watch btc-usd closely.", terms)).toMatch(/BTC-USD/);
    expect(lessonProblem("Filings from Acme beat estimates.", terms)).toMatch(/Acme/);
    // a sentence opener is not taken for a name ("Fed" only inside a sentence)
    expect(lessonProblem("Fed decisions move rates.", terms)).toBeNull();
    expect(lessonProblem("Rates move after the Fed speaks.", terms)).toMatch(/Fed/);
    expect(lessonProblem("", terms)).toMatch(/empty/);
    expect(lessonProblem("x".repeat(301), terms)).toMatch(/characters/);
  });
});
