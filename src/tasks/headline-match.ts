import { ENGLISH_STOPWORDS, wordTokens } from "../world/fts-text.js";

/**
 * Crude text matching for the honest news heuristics of breakout-news and resolution-detect: the
 * distinctive words of a market question, and how many of them a headline mentions. Words are
 * compared by their first `PREFIX` letters, so "Carvania" matches "Carvanian" and "open" matches
 * "opening".
 */

const PREFIX = 5;
/** words that say nothing about a question's subject */
const GENERIC = new Set([
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
  "new",
]);

const key = (w: string) => w.slice(0, PREFIX);

/** Distinctive words of a question (no stopwords, months, numbers or one-letter words), in order, distinct. */
export function questionTerms(question: string): string[] {
  const out: string[] = [];
  for (const w of wordTokens(question)) {
    if (ENGLISH_STOPWORDS.has(w) || GENERIC.has(w) || /^\d+$/.test(w) || w.length < 2) continue;
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

/** How many distinct question terms a text mentions (prefix match). */
export function termHits(text: string, terms: readonly string[]): number {
  const words = new Set(wordTokens(text).map(key));
  return new Set(terms.map(key).filter((k) => words.has(k))).size;
}

/** `a OR b OR c` over the terms (a search_news query). */
export function anyOf(terms: readonly string[]): string {
  return terms.join(" OR ");
}
