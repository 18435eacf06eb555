import Database from "better-sqlite3";

/**
 * The exact FTS5 tokens (porter over unicode61, remove_diacritics 2 — the tokenizer of `news_fts`)
 * of words, taken from SQLite itself rather than re-implemented: the words are inserted as rows of
 * a private in-memory FTS5 table with the same tokenizer and read back through `fts5vocab`
 * ('instance'), so the relive-owned news index and its queries see exactly the terms FTS5 sees.
 *
 * A word is a content token of `fts-text.ts` (no spaces), so the FTS5 tokens of a prepared text are
 * the concatenation of the tokens of its words (space separates tokens in unicode61). Usually a
 * word gives one token; it may give none or several (e.g. a character unicode61 treats as a
 * separator).
 */
export class FtsTokenizer {
  private readonly db: Database.Database;
  private readonly cache = new Map<string, readonly string[]>();
  private readonly maxCache: number;
  private readonly ins: Database.Statement;
  private readonly read: Database.Statement;

  constructor(opts: { maxCache?: number } = {}) {
    this.maxCache = opts.maxCache ?? Number.POSITIVE_INFINITY;
    this.db = new Database(":memory:");
    this.db.exec(
      "CREATE VIRTUAL TABLE w USING fts5(x, content='', tokenize='porter unicode61 remove_diacritics 2');" +
        "CREATE VIRTUAL TABLE wv USING fts5vocab(w, 'instance');",
    );
    this.ins = this.db.prepare("INSERT INTO w (rowid, x) VALUES (?, ?)");
    this.read = this.db.prepare("SELECT doc, term FROM wv ORDER BY doc, offset");
  }

  /** The FTS5 tokens of one word (cached). */
  tokens(word: string): readonly string[] {
    const hit = this.cache.get(word);
    if (hit !== undefined) return hit;
    this.resolve([word]);
    return this.cache.get(word) as readonly string[];
  }

  /** Resolves every word not yet cached in one transaction (call before many `tokens` lookups). */
  resolve(words: Iterable<string>): void {
    const todo: string[] = [];
    const seen = new Set<string>();
    for (const w of words) {
      if (!this.cache.has(w) && !seen.has(w)) {
        seen.add(w);
        todo.push(w);
      }
    }
    if (todo.length === 0) return;
    if (this.cache.size + todo.length > this.maxCache) this.cache.clear();
    const out: string[][] = todo.map(() => []);
    this.db.transaction(() => {
      for (let i = 0; i < todo.length; i++) this.ins.run(i + 1, todo[i]);
      for (const r of this.read.iterate() as Iterable<{ doc: number; term: string }>)
        (out[r.doc - 1] as string[]).push(r.term);
      this.db.exec("INSERT INTO w (w) VALUES ('delete-all')");
    })();
    for (let i = 0; i < todo.length; i++) this.cache.set(todo[i] as string, out[i] as string[]);
  }

  close(): void {
    this.db.close();
  }
}
