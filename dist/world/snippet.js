import { wordTokens } from "./fts-text.js";
const SUFFIXES = ["ingly", "edly", "ing", "ies", "ied", "ed", "es", "ly", "s"];
function stem(w) {
  for (const s of SUFFIXES) if (w.length - s.length >= 3 && w.endsWith(s)) return w.slice(0, w.length - s.length);
  return w;
}
function makeSnippet(text, terms, maxWords = 32) {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return "";
  const stems = terms.map(stem);
  let hit = -1;
  for (let i = 0; i < words.length && hit < 0; i++) {
    for (const tok of wordTokens(words[i])) {
      const s = stem(tok);
      if (stems.some((t) => t === s || t.length >= 4 && s.startsWith(t))) {
        hit = i;
        break;
      }
    }
  }
  const start = hit < 0 ? 0 : Math.max(0, Math.min(hit - Math.floor(maxWords / 4), words.length - maxWords));
  const end = Math.min(words.length, start + maxWords);
  return `${start > 0 ? "\u2026 " : ""}${words.slice(start, end).join(" ")}${end < words.length ? " \u2026" : ""}`;
}
export {
  makeSnippet
};
//# sourceMappingURL=snippet.js.map
