import { wordTokens } from "./fts-text.js";

const SUFFIXES = ["ingly", "edly", "ing", "ies", "ied", "ed", "es", "ly", "s"];

/** A crude suffix stripper, only used to place snippets (the index itself uses porter). */
function stem(w: string): string {
  for (const s of SUFFIXES) if (w.length - s.length >= 3 && w.endsWith(s)) return w.slice(0, w.length - s.length);
  return w;
}

/**
 * A window of about `maxWords` words of `text` around the first word matching a query term
 * (or the start of the text), with "…" where text was cut. Depends only on the article and query.
 */
export function makeSnippet(text: string, terms: readonly string[], maxWords = 32): string {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return "";
  const stems = terms.map(stem);
  let hit = -1;
  for (let i = 0; i < words.length && hit < 0; i++) {
    for (const tok of wordTokens(words[i] as string)) {
      const s = stem(tok);
      if (stems.some((t) => t === s || (t.length >= 4 && s.startsWith(t)))) {
        hit = i;
        break;
      }
    }
  }
  const start = hit < 0 ? 0 : Math.max(0, Math.min(hit - Math.floor(maxWords / 4), words.length - maxWords));
  const end = Math.min(words.length, start + maxWords);
  return `${start > 0 ? "… " : ""}${words.slice(start, end).join(" ")}${end < words.length ? " …" : ""}`;
}
