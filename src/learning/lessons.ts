/** most lessons the curator keeps */
export const MAX_LESSONS = 6;
/** longest lesson */
export const LESSON_MAX_CHARS = 300;

const MONTHS =
  "jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?";
const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{2}(-\d{2})?\b/, // 2026-03-02, 2026-03
  /\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/, // 3/2, 03/02/2026
  new RegExp(`\\b(${MONTHS})\\.?\\s+\\d{1,2}\\b`, "i"), // March 2
  new RegExp(`\\b\\d{1,2}(st|nd|rd|th)?\\s+(of\\s+)?(${MONTHS})\\b`, "i"), // 2 March
  /\b(19|20)\d{2}\b/, // a year
  /\b\d{1,2}:\d{2}\b/, // a clock time
];
const PRICE_PATTERNS: RegExp[] = [
  /[$€£¥]\s?\d/, // $12
  /\b\d[\d,.]*\s?(usd|eur|dollars?|cents?|btc|eth|usdt)\b/i, // 12 USD
  /\b\d{1,3}(,\d{3})+(\.\d+)?\b/, // 67,000
  /\b\d{4,}(\.\d+)?\b/, // 67000, 1234.5
];

/**
 * Why a lesson is not a generalized lesson (null: accepted). A lesson may name no date, no price and
 * no id or entity name from the world: `worldTerms` are the ids and names the curator was shown
 * (observation ids, commitment argument values, capitalized names in observation summaries),
 * matched as whole words, case-insensitively for ids, exactly for names.
 */
export function lessonProblem(lesson: string, worldTerms: ReadonlySet<string>): string | null {
  const s = lesson.trim();
  if (s.length === 0) return "it is empty";
  if (s.length > LESSON_MAX_CHARS) return `it has ${s.length} characters (at most ${LESSON_MAX_CHARS})`;
  for (const re of DATE_PATTERNS) {
    const m = re.exec(s);
    if (m) return `it names a date or time ("${m[0]}")`;
  }
  for (const re of PRICE_PATTERNS) {
    const m = re.exec(s);
    if (m) return `it names a price or amount ("${m[0]}")`;
  }
  const tokens = s.split(/\s+/);
  const strip = (w: string) => w.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
  const all = new Set(tokens.map(strip));
  const lower = new Set([...all].map((w) => w.toLowerCase()));
  // a lesson's own sentence openers are capitalized anyway: a name must appear inside a sentence (tickers anywhere)
  const inner = new Set(tokens.flatMap((w, i) => (i > 0 && !/[.!?:]$/.test(tokens[i - 1]!) ? [strip(w)] : [])));
  for (const term of worldTerms) {
    const isId = /[\d_:-]/.test(term);
    const hit = isId ? lower.has(term.toLowerCase()) : /^[A-Z]{2,6}$/.test(term) ? all.has(term) : inner.has(term);
    if (hit) return `it names "${term}" from the world (an id or entity name)`;
  }
  return null;
}

/** capitalized words too common to be a world's name */
const COMMON = new Set(
  "Yes No True False None The This That These Those And But For With From Into Over Under New Not All Any Will What When How Why Who Which Where Your You They Their There Here Open Closed Resolved Answer".split(
    " ",
  ),
);

/** Words in `text` that look like names: capitalized words (but common ones) and all-caps tickers. */
export function namesIn(text: string): string[] {
  const out: string[] = [];
  const tokens = text.split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]!;
    const w = raw.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
    if (w.length < 3 || COMMON.has(w)) continue;
    if (/^[A-Z]{2,6}$/.test(w) || /^[A-Z][a-z]+$/.test(w) || /^[A-Z][a-z]*[A-Z]/.test(w)) out.push(w);
  }
  return out;
}

/** Terms a curator's input exposes: ids (any token with a digit or an id shape) and names. */
export function worldTermsOf(ids: Iterable<string>, texts: Iterable<string>): Set<string> {
  const terms = new Set<string>();
  for (const id of ids) if (id.length >= 3) terms.add(id);
  for (const t of texts) for (const n of namesIn(t)) terms.add(n);
  return terms;
}
