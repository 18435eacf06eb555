import { contentTokens } from "./fts-text.js";

/** A news search query that has no usable terms, even after sanitizing. */
export class SearchQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchQueryError";
  }
}

export const MAX_QUERY_CHARS = 1000;

/**
 * A user query compiled to FTS5 MATCH expressions.
 * - `primary`: the query with its structure kept (quoted phrases, AND, OR, NOT, parentheses;
 *   adjacent terms are ANDed as in FTS5), every term re-quoted so no FTS5 syntax comes from the
 *   user, stopwords dropped like at indexing; null when the query is malformed (unbalanced quotes
 *   or parentheses, dangling operators) or has no terms.
 * - `fallback`: the sanitized retry: every content term of the query ORed; null when none.
 * - `terms`: the content terms, for snippets.
 */
export interface CompiledQuery {
  primary: string | null;
  fallback: string | null;
  terms: string[];
  /**
   * The primary query when it is a flat list of words or quoted phrases joined only by AND
   * (explicit or implicit) or only by OR — the shapes the relive-owned index ranks itself
   * (`news-top-k.ts`); null for NOT, parentheses, mixed operators, or when `primary` is null. The
   * fallback is always the flat OR of `terms`.
   */
  flat: FlatQuery | null;
  /**
   * The primary query as FTS5's own grammar parses it (`BoolQuery`), for the index to rank any
   * boolean shape; null when `primary` is null or FTS5 rejects it (see `primaryRejected`).
   */
  tree: BoolQuery | null;
  /**
   * true when `primary` is non-null but FTS5's grammar rejects it — a parenthesized group
   * juxtaposed with a phrase or another group (`(a) b`, `a (b)`: FTS5 ANDs only juxtaposed
   * phrases) — so the FTS5 statement fails on it and the sanitized retry (`fallback`) is what ranks.
   */
  primaryRejected: boolean;
}

/**
 * A boolean query tree over phrases (`phrases[i]`: a phrase's content words, in query order,
 * repeats kept — FTS5 numbers its bm25 phrases so), shaped as FTS5 builds it: NOT binds tighter
 * than AND, AND tighter than OR, all left-associative, juxtaposed phrases are ANDed tighter than
 * all, and an AND (OR) operand that is itself an AND (OR) is merged into it (`a AND (b AND c)` is
 * one AND of three) — the shape matters to FTS5's lazy cursors (`news-fts5-replay.ts`).
 */
export interface BoolQuery {
  phrases: string[][];
  root: BoolNode;
}

export type BoolNode =
  | { t: "phrase"; i: number }
  | { t: "and"; kids: BoolNode[] }
  | { t: "or"; kids: BoolNode[] }
  | { t: "not"; left: BoolNode; right: BoolNode };

/**
 * Phrases (in query order, repeats kept: each is a bm25 phrase; a phrase is its content words, one
 * for a single word) joined by one operator.
 */
export interface FlatQuery {
  op: "AND" | "OR";
  phrases: string[][];
}

function flatOf(toks: Tok[]): FlatQuery | null {
  const phrases: string[][] = [];
  let op: "AND" | "OR" | null = null;
  let expectWord = true;
  for (const tok of toks) {
    if (tok.t === "phrase") {
      if (!expectWord) {
        if (op === "OR") return null; // implicit AND after an OR
        op = "AND";
      }
      phrases.push(tok.words);
      expectWord = false;
    } else if (tok.t === "op") {
      if (expectWord || tok.op === "NOT") return null;
      if (op !== null && op !== tok.op) return null;
      op = tok.op;
      expectWord = true;
    } else return null;
  }
  if (expectWord || phrases.length === 0) return null;
  return { op: op ?? "AND", phrases };
}

/**
 * FTS5's parse of a token stream `emit` accepted (fts5parse.y: `expr ::= expr AND|OR|NOT expr |
 * LP expr RP | exprlist`, `exprlist ::= phrase+`, precedence OR < AND < NOT); null when FTS5's
 * grammar rejects it: a group next to a phrase or another group without an operator.
 */
function treeOf(toks: Tok[]): BoolQuery | null {
  const phrases: string[][] = [];
  let pos = 0;
  let bad = false;
  const binary = (op: "AND" | "OR" | "NOT", next: () => BoolNode): BoolNode => {
    let left = next();
    for (;;) {
      const tok = toks[pos];
      if (bad || tok?.t !== "op" || tok.op !== op) return left;
      pos++;
      const right = next();
      if (op === "NOT") left = { t: "not", left, right };
      else {
        // FTS5 merges an operand of the same operator into the node (fts5ExprAddChildren), parentheses or not
        const t = op === "AND" ? "and" : "or";
        const kids = (x: BoolNode) => (x.t === t ? x.kids : [x]);
        left = { t, kids: [...kids(left), ...kids(right)] };
      }
    }
  };
  const atom = (): BoolNode => {
    const tok = toks[pos];
    if (tok?.t === "lp") {
      pos++;
      const inner = or();
      pos++; // the ")" (emit checked the balance)
      const after = toks[pos];
      if (after?.t === "phrase" || after?.t === "lp") bad = true;
      return inner;
    }
    const run: BoolNode[] = [];
    for (let t = toks[pos]; t?.t === "phrase"; t = toks[++pos]) {
      run.push({ t: "phrase", i: phrases.length });
      phrases.push(t.words);
    }
    if (toks[pos]?.t === "lp") bad = true;
    return run.length === 1 ? (run[0] as BoolNode) : { t: "and", kids: run };
  };
  const not = (): BoolNode => binary("NOT", atom);
  const and = (): BoolNode => binary("AND", not);
  const or = (): BoolNode => binary("OR", and);
  const root = or();
  return bad ? null : { phrases, root };
}

type Tok = { t: "phrase"; words: string[] } | { t: "op"; op: "AND" | "OR" | "NOT" } | { t: "lp" } | { t: "rp" };

function quote(words: string[]): string {
  return `"${words.join(" ")}"`;
}

/** Lexes the query; null when quotes are unbalanced. Terms that are only stopwords vanish. */
function lex(q: string): Tok[] | null {
  const out: Tok[] = [];
  let i = 0;
  while (i < q.length) {
    const ch = q[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"') {
      const close = q.indexOf('"', i + 1);
      if (close < 0) return null;
      const words = contentTokens(q.slice(i + 1, close));
      if (words.length > 0) out.push({ t: "phrase", words });
      i = close + 1;
    } else if (ch === "(") {
      out.push({ t: "lp" });
      i++;
    } else if (ch === ")") {
      out.push({ t: "rp" });
      i++;
    } else {
      let j = i;
      while (j < q.length && !/[\s"()]/.test(q[j] as string)) j++;
      const word = q.slice(i, j);
      if (word === "AND" || word === "OR" || word === "NOT") out.push({ t: "op", op: word });
      else {
        const words = contentTokens(word);
        if (words.length > 0) out.push({ t: "phrase", words });
      }
      i = j;
    }
  }
  return out;
}

/**
 * Validates `expr := unary ((AND|OR|NOT)? unary)*`, `unary := phrase | "(" expr ")"` and emits the
 * FTS5 expression; null when the token stream does not follow it.
 */
function emit(toks: Tok[]): string | null {
  let pos = 0;
  const parts: string[] = [];
  const unary = (): boolean => {
    const tok = toks[pos];
    if (!tok) return false;
    if (tok.t === "phrase") {
      parts.push(quote(tok.words));
      pos++;
      return true;
    }
    if (tok.t === "lp") {
      parts.push("(");
      pos++;
      if (!expr()) return false;
      if (toks[pos]?.t !== "rp") return false;
      parts.push(")");
      pos++;
      return true;
    }
    return false;
  };
  const expr = (): boolean => {
    if (!unary()) return false;
    for (;;) {
      const tok = toks[pos];
      if (!tok || tok.t === "rp") return true;
      if (tok.t === "op") {
        parts.push(tok.op);
        pos++;
      }
      if (!unary()) return false;
    }
  };
  if (toks.length === 0) return null;
  if (!expr() || pos !== toks.length) return null;
  return parts.join(" ");
}

/** compiled queries by text (a policy sends the same few queries at every wake); cleared when full */
const COMPILED_CACHE_MAX = 1024;
const compiledCache = new Map<string, CompiledQuery>();

/**
 * Compiles a user query (the result is shared between calls with the same text: do not mutate it);
 * throws SearchQueryError for an empty or over-long query.
 */
export function compileSearchQuery(q: string): CompiledQuery {
  const hit = compiledCache.get(q);
  if (hit !== undefined) return hit;
  const c = compile(q);
  if (compiledCache.size >= COMPILED_CACHE_MAX) compiledCache.clear();
  compiledCache.set(q, c);
  return c;
}

function compile(q: string): CompiledQuery {
  if (q.trim() === "") throw new SearchQueryError("empty search query: give one or more words");
  if (q.length > MAX_QUERY_CHARS) {
    throw new SearchQueryError(`search query too long: ${q.length} characters (at most ${MAX_QUERY_CHARS})`);
  }
  const toks = lex(q);
  const primary = toks ? emit(toks) : null;
  const terms = [...new Set(contentTokens(q))];
  const fallback = terms.length > 0 ? terms.map((t) => quote([t])).join(" OR ") : null;
  const tree = primary !== null && toks ? treeOf(toks) : null;
  return {
    primary,
    fallback,
    terms,
    flat: primary !== null && toks ? flatOf(toks) : null,
    tree,
    primaryRejected: primary !== null && tree === null,
  };
}

/** The error thrown when neither the query nor its sanitized retry is usable. */
export function unusableQueryError(q: string): SearchQueryError {
  return new SearchQueryError(
    `search query ${JSON.stringify(q)} has no searchable terms (English stopwords and search syntax are ignored)`,
  );
}
