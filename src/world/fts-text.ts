/**
 * Text normalisation shared by news indexing and news search, so both sides see the same terms.
 *
 * The FTS5 table uses the `porter unicode61 remove_diacritics 2` tokenizer. Before text reaches it,
 * `ftsIndexText` lowercases, splits on the same boundaries as unicode61 (runs of letters, marks and
 * digits) and drops English stopwords, so the index never holds a stopword and stopword-only queries
 * are rejected instead of matching everything.
 */

/** English stopwords (the common NLTK list), removed at indexing and from queries. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers " +
    "herself it its itself they them their theirs themselves what which who whom this that these those am is are " +
    "was were be been being have has had having do does did doing a an the and but if or because as until while of " +
    "at by for with about against between into through during before after above below to from up down in out on " +
    "off over under again further then once here there when where why how all any both each few more most other " +
    "some such no nor not only own same so than too very s t can will just don should now d ll m o re ve y ain " +
    "aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn"
  ).split(" "),
);

const TOKEN_RE = /[\p{L}\p{M}\p{N}]+/gu;

/** Lowercased word tokens of `text` (unicode61-like boundaries), stopwords included. */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN_RE) ?? [];
}

/** Lowercased word tokens of `text` with English stopwords removed. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const t of wordTokens(text)) if (!ENGLISH_STOPWORDS.has(t)) out.push(t);
  return out;
}

/** The text handed to the FTS5 index: content tokens joined by single spaces. */
export function ftsIndexText(text: string): string {
  return contentTokens(text).join(" ");
}
