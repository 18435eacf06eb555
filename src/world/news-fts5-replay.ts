import type { NewsIndex, Postings } from "./news-index.js";
import { gallop } from "./news-postings-merge.js";
import type { TopKPhrase } from "./news-top-k.js";
import type { BoolNode } from "./search-query.js";

/**
 * A replay of FTS5's own cursor machine for a boolean MATCH expression over the relive-owned news
 * index, for the queries whose bm25 depends on it (`news-bool-top-k.ts` says which): FTS5 counts a
 * phrase's instances in a row when the phrase's cursor sits on the row with a non-empty position
 * list (`sqlite3Fts5ExprPoslist`), and its cursors move lazily — an AND below the root positioned
 * on a row where a child does not really match (a phrase whose terms are there but not adjacent)
 * empties the position lists of all its phrases, including those of children already parked on a
 * later row, which stay empty when the AND gets there (measured: in `"rate banks" AND (ports OR
 * grain) OR zinc`, "ports" goes uncounted in rows that match through it).
 *
 * Replayed (SQLite 3.53, detail=full, ascending rowids): `fts5ExprNodeFirst`,
 * `fts5ExprNodeNext_{TERM,STRING,AND,OR,NOT}`, `fts5ExprNodeTest_*`, `fts5ExprSetEof`,
 * `fts5ExprNodeZeroPoslist` and `sqlite3Fts5ExprFirst/Next` (first match, a seek to the rowid
 * lower bound, rows until past the upper bound). A one-term phrase's cursor runs over its
 * postings; a longer phrase's over the rows holding all its terms (a leapfrog of their postings),
 * flagged no-match where the phrase's own postings (`phrasePostings`) lack the row.
 */

/** FTS5's per-node cursor state: rowid, at-end, positioned-without-matching. */
interface Cursor {
  rowid: number;
  eof: boolean;
  nomatch: boolean;
}

/** A one-term phrase (FTS5_TERM): its postings. */
interface TermCursor extends Cursor {
  t: "term";
  /** the query phrase index */
  i: number;
  seqs: Int32Array;
  j: number;
  /** the position list is non-empty (set when positioned, emptied by an enclosing AND or NOT) */
  pl: boolean;
}

/** A phrase of two or more terms (FTS5_STRING): the rows holding every term; no-match where the phrase is absent. */
interface PhraseCursor extends Cursor {
  t: "phrase";
  i: number;
  terms: Int32Array[];
  js: Int32Array;
  /** the phrase's own postings and a forward cursor in them */
  hits: Int32Array;
  pj: number;
  pl: boolean;
}

interface AndCursor extends Cursor {
  t: "and";
  kids: Node[];
}
interface OrCursor extends Cursor {
  t: "or";
  kids: Node[];
}
interface NotCursor extends Cursor {
  t: "not";
  kids: [Node, Node];
}

type Node = TermCursor | PhraseCursor | AndCursor | OrCursor | NotCursor;

/** FTS5's fts5NodeCompare (ascending): at-end nodes are the largest. */
function compare(p1: Node, p2: Node): number {
  if (p2.eof) return -1;
  if (p1.eof) return 1;
  return p1.rowid < p2.rowid ? -1 : p1.rowid > p2.rowid ? 1 : 0;
}

function setEof(n: Node): void {
  n.eof = true;
  n.nomatch = false;
  if (n.t === "and" || n.t === "or" || n.t === "not") for (const c of n.kids) setEof(c);
}

function zeroPoslist(n: Node): void {
  if (n.t === "term" || n.t === "phrase") n.pl = false;
  else for (const c of n.kids) zeroPoslist(c);
}

class Machine {
  constructor(readonly root: Node) {}

  first(n: Node): void {
    n.eof = false;
    n.nomatch = false;
    switch (n.t) {
      case "term":
        n.j = 0;
        if (n.seqs.length === 0) n.eof = true;
        break;
      case "phrase":
        n.js.fill(0);
        if (n.terms.some((s) => s.length === 0)) n.eof = true;
        break;
      case "and":
      case "or":
      case "not": {
        let nEof = 0;
        for (const c of n.kids) {
          this.first(c);
          if (c.eof) nEof++;
        }
        n.rowid = (n.kids[0] as Node).rowid;
        if (n.t === "and") {
          if (nEof > 0) setEof(n);
        } else if (n.t === "or") {
          if (nEof === n.kids.length) setEof(n);
        } else n.eof = n.kids[0].eof;
        break;
      }
      default: {
        const never: never = n;
        throw new RangeError(`unknown cursor ${JSON.stringify(never)}`);
      }
    }
    if (!n.eof) this.test(n);
  }

  test(n: Node): void {
    switch (n.t) {
      case "term":
        n.rowid = n.seqs[n.j] as number;
        n.pl = true;
        n.nomatch = false;
        return;
      case "phrase":
        this.testPhrase(n);
        return;
      case "and":
        this.testAnd(n);
        return;
      case "or":
        this.testOr(n);
        return;
      case "not":
        this.testNot(n);
        return;
      default: {
        const never: never = n;
        throw new RangeError(`unknown cursor ${JSON.stringify(never)}`);
      }
    }
  }

  /** fts5ExprNodeTest_STRING: every term on one row, then the phrase test. */
  private testPhrase(n: PhraseCursor): void {
    const terms = n.terms;
    let last = (terms[0] as Int32Array)[n.js[0] as number] as number;
    let match: boolean;
    do {
      match = true;
      for (let t = 0; t < terms.length; t++) {
        const s = terms[t] as Int32Array;
        let j = n.js[t] as number;
        let r = s[j] as number;
        if (r === last) continue;
        match = false;
        if (last > r) {
          j = gallop(s, last, j, s.length);
          n.js[t] = j;
          if (j >= s.length) {
            n.eof = true;
            return;
          }
          r = s[j] as number;
        }
        last = r;
      }
    } while (!match);
    n.rowid = last;
    n.pj = gallop(n.hits, last, n.pj, n.hits.length);
    const hit = n.pj < n.hits.length && n.hits[n.pj] === last;
    n.nomatch = !hit;
    n.pl = hit;
  }

  private testOr(n: OrCursor): void {
    let next = n.kids[0] as Node;
    for (let i = 1; i < n.kids.length; i++) {
      const c = n.kids[i] as Node;
      const cmp = compare(next, c);
      if (cmp > 0 || (cmp === 0 && !c.nomatch)) next = c;
    }
    n.rowid = next.rowid;
    n.eof = next.eof;
    n.nomatch = next.nomatch;
  }

  private testAnd(n: AndCursor): void {
    let last = n.rowid;
    let match: boolean;
    do {
      n.nomatch = false;
      match = true;
      for (const c of n.kids) {
        if (last > c.rowid) this.next(c, true, last);
        if (c.eof) {
          setEof(n);
          match = true;
          break;
        }
        if (last !== c.rowid) {
          match = false;
          last = c.rowid;
        }
        if (c.nomatch) n.nomatch = true;
      }
    } while (!match);
    if (n.nomatch && n !== this.root) zeroPoslist(n);
    n.rowid = last;
  }

  private testNot(n: NotCursor): void {
    const [p1, p2] = n.kids;
    while (!p1.eof) {
      let cmp = compare(p1, p2);
      if (cmp > 0) {
        this.next(p2, true, p1.rowid);
        cmp = compare(p1, p2);
      }
      if (cmp !== 0 || p2.nomatch) break;
      this.next(p1, false, 0);
    }
    n.eof = p1.eof;
    n.nomatch = p1.nomatch;
    n.rowid = p1.rowid;
    if (p1.eof) zeroPoslist(p2);
  }

  /** fts5ExprNodeNext: the next row, or (fromValid) the first row >= from (called only when behind it). */
  next(n: Node, fromValid: boolean, from: number): void {
    // a cursor at its end stays there (FTS5 reaches this only for an OR whose children all ended)
    if (n.eof) return;
    switch (n.t) {
      case "term": {
        n.j = fromValid ? gallop(n.seqs, from, n.j, n.seqs.length) : n.j + 1;
        if (n.j >= n.seqs.length) {
          n.eof = true;
          n.nomatch = false;
        } else this.test(n);
        return;
      }
      case "phrase": {
        n.nomatch = false;
        const s = n.terms[0] as Int32Array;
        const j = fromValid ? gallop(s, from, n.js[0] as number, s.length) : (n.js[0] as number) + 1;
        n.js[0] = j;
        if (j >= s.length) n.eof = true;
        else this.testPhrase(n);
        return;
      }
      case "or": {
        const last = n.rowid;
        for (const c of n.kids) {
          if (!c.eof && (c.rowid === last || (fromValid && c.rowid < from))) this.next(c, fromValid, from);
        }
        this.testOr(n);
        return;
      }
      case "and":
        this.next(n.kids[0] as Node, fromValid, from);
        this.testAnd(n);
        return;
      case "not":
        this.next(n.kids[0], fromValid, from);
        this.testNot(n);
        return;
      default: {
        const never: never = n;
        throw new RangeError(`unknown cursor ${JSON.stringify(never)}`);
      }
    }
  }
}

/**
 * Every row FTS5 returns for the expression with rowid in [lo, hi], ascending, with the phrases
 * it counts there: `visit(seq, at)` where at[i] is phrase i's posting index in `lists[i]` (its
 * weighted frequency) or -1 when bm25 does not count it in this row.
 */
export function fts5Replay(
  index: NewsIndex,
  phrases: readonly TopKPhrase[],
  lists: readonly Postings[],
  tree: BoolNode,
  lo: number,
  hi: number,
  visit: (seq: number, at: Int32Array) => void,
): void {
  const m = phrases.length;
  const leaves: (TermCursor | PhraseCursor)[] = [];
  const build = (b: BoolNode): Node => {
    const base = { rowid: 0, eof: false, nomatch: false };
    switch (b.t) {
      case "phrase": {
        const t = phrases[b.i] as TopKPhrase;
        const leaf: TermCursor | PhraseCursor =
          typeof t === "string" || t.length === 1
            ? { ...base, t: "term", i: b.i, seqs: (lists[b.i] as Postings).seqs, j: 0, pl: false }
            : {
                ...base,
                t: "phrase",
                i: b.i,
                terms: t.map((x) => index.postings(x).seqs),
                js: new Int32Array(t.length),
                hits: (lists[b.i] as Postings).seqs,
                pj: 0,
                pl: false,
              };
        leaves.push(leaf);
        return leaf;
      }
      case "and":
      case "or":
        return { ...base, t: b.t, kids: b.kids.map(build) };
      case "not":
        return { ...base, t: "not", kids: [build(b.left), build(b.right)] };
      default: {
        const never: never = b;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  const root = build(tree);
  if (leaves.length !== m) throw new RangeError(`fts5Replay: the tree has ${leaves.length} phrases, the query ${m}`);
  leaves.sort((x, y) => x.i - y.i);
  const fm = new Machine(root);
  const at = new Int32Array(m);
  fm.first(root);
  if (!root.eof && root.rowid < lo) fm.next(root, true, lo);
  while (root.nomatch) fm.next(root, false, 0);
  while (!root.eof && root.rowid <= hi) {
    const d = root.rowid;
    for (const leaf of leaves) {
      at[leaf.i] = leaf.eof || leaf.rowid !== d || !leaf.pl ? -1 : leaf.t === "term" ? leaf.j : leaf.pj;
    }
    visit(d, at);
    do fm.next(root, false, 0);
    while (root.nomatch);
  }
}
