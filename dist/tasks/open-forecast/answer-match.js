function normalizeAnswer(s) {
  return s.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s]+/gu, "").replace(/\s+/g, " ").trim();
}
function matchAnswer(questionId, outcome, truth, judge = null) {
  if (outcome === truth) return "exact";
  const n = normalizeAnswer(outcome);
  if (n !== "" && n === normalizeAnswer(truth)) return "normalized";
  if (judge?.verdict(questionId, truth, outcome) === true) return "judge";
  return null;
}
export {
  matchAnswer,
  normalizeAnswer
};
//# sourceMappingURL=answer-match.js.map
