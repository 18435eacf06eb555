import { contentTokens } from "./fts-text.js";
class SearchQueryError extends Error {
  constructor(message) {
    super(message);
    this.name = "SearchQueryError";
  }
}
const MAX_QUERY_CHARS = 1e3;
function flatOf(toks) {
  const words = [];
  let op = null;
  let expectWord = true;
  for (const tok of toks) {
    if (tok.t === "phrase") {
      if (tok.words.length !== 1) return null;
      if (!expectWord) {
        if (op === "OR") return null;
        op = "AND";
      }
      words.push(tok.words[0]);
      expectWord = false;
    } else if (tok.t === "op") {
      if (expectWord || tok.op === "NOT") return null;
      if (op !== null && op !== tok.op) return null;
      op = tok.op;
      expectWord = true;
    } else return null;
  }
  if (expectWord || words.length === 0) return null;
  return { op: op ?? "AND", words };
}
function quote(words) {
  return `"${words.join(" ")}"`;
}
function lex(q) {
  const out = [];
  let i = 0;
  while (i < q.length) {
    const ch = q[i];
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
      while (j < q.length && !/[\s"()]/.test(q[j])) j++;
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
function emit(toks) {
  let pos = 0;
  const parts = [];
  const unary = () => {
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
  const expr = () => {
    if (!unary()) return false;
    for (; ; ) {
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
function compileSearchQuery(q) {
  if (q.trim() === "") throw new SearchQueryError("empty search query: give one or more words");
  if (q.length > MAX_QUERY_CHARS) {
    throw new SearchQueryError(`search query too long: ${q.length} characters (at most ${MAX_QUERY_CHARS})`);
  }
  const toks = lex(q);
  const primary = toks ? emit(toks) : null;
  const terms = [...new Set(contentTokens(q))];
  const fallback = terms.length > 0 ? terms.map((t) => quote([t])).join(" OR ") : null;
  return { primary, fallback, terms, flat: primary !== null && toks ? flatOf(toks) : null };
}
function unusableQueryError(q) {
  return new SearchQueryError(
    `search query ${JSON.stringify(q)} has no searchable terms (English stopwords and search syntax are ignored)`
  );
}
export {
  MAX_QUERY_CHARS,
  SearchQueryError,
  compileSearchQuery,
  unusableQueryError
};
//# sourceMappingURL=search-query.js.map
