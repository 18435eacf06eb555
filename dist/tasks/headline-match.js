import { ENGLISH_STOPWORDS, wordTokens } from "../world/fts-text.js";
const PREFIX = 5;
const GENERIC = /* @__PURE__ */ new Set([
  "will",
  "would",
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
  "new"
]);
const key = (w) => w.slice(0, PREFIX);
function questionTerms(question) {
  const out = [];
  for (const w of wordTokens(question)) {
    if (ENGLISH_STOPWORDS.has(w) || GENERIC.has(w) || /^\d+$/.test(w) || w.length < 2) continue;
    if (!out.includes(w)) out.push(w);
  }
  return out;
}
function termHits(text, terms) {
  const words = new Set(wordTokens(text).map(key));
  return new Set(terms.map(key).filter((k) => words.has(k))).size;
}
function anyOf(terms) {
  return terms.join(" OR ");
}
export {
  anyOf,
  questionTerms,
  termHits
};
//# sourceMappingURL=headline-match.js.map
