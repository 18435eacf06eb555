/**
 * The OpenAI test server's prompt accounting, kept incrementally: a prompt is its JSON lines joined
 * by "\n" (test/support/openai-test-server.ts `serializePrompt`); `add(lines)` returns its cl100k
 * token count and the longest common token prefix it shares with any prompt added before.
 *
 * Done the plain way (tokenize the whole prompt, compare it with every earlier one) a run of n calls
 * over a context of c tokens costs n·c tokenization and n²·c comparisons: minutes for a 60k-token
 * agent. Here each distinct line is tokenized once and prompts are kept as a trie of lines:
 * - cl100k's pre-tokenizer never lets a piece run across the "\n" that ends a JSON line (a line
 *   ends in `}`, `]`, `"`, a digit or a letter, never in white space, and the next one starts a new
 *   piece), so a prompt's tokens are the concatenation of `tokens(line + "\n")` per line (the last
 *   line without the "\n"). test/support/prompt-prefix-index.test.ts checks both against the plain
 *   computation.
 * - Two prompts share whole lines up to the first line where they differ, then a prefix of that
 *   line's tokens (neither line's tokens can be a prefix of the other's: a line holds no "\n" but
 *   its last character); so the longest common prefix with any earlier prompt is found at the trie
 *   node where this prompt leaves the tree, among that node's children.
 */
interface Node {
  /** the next line's text (with its "\n", unless it ended its prompt) → node */
  children: Map<string, Node>;
}

export class PromptPrefixIndex {
  private readonly root: Node = { children: new Map() };
  private readonly tokensOfLine = new Map<string, number[]>();

  constructor(private readonly tokenize: (text: string) => number[]) {}

  private tokens(key: string): number[] {
    let t = this.tokensOfLine.get(key);
    if (t === undefined) {
      t = this.tokenize(key);
      this.tokensOfLine.set(key, t);
    }
    return t;
  }

  /** Adds a prompt (its lines, in order); returns its token count and its longest common token prefix with any earlier prompt. */
  add(lines: readonly string[]): { promptTokens: number; common: number } {
    const keys = lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l));
    let promptTokens = 0;
    for (const k of keys) promptTokens += this.tokens(k).length;
    let node = this.root;
    let consumed = 0;
    let i = 0;
    for (; i < keys.length; i++) {
      const next = node.children.get(keys[i] as string);
      if (next === undefined) break;
      consumed += this.tokens(keys[i] as string).length;
      node = next;
    }
    let common = consumed;
    if (i < keys.length) {
      const mine = this.tokens(keys[i] as string);
      let best = 0;
      for (const other of node.children.keys()) best = Math.max(best, commonPrefixLength(this.tokens(other), mine));
      common += best;
      for (; i < keys.length; i++) {
        const created: Node = { children: new Map() };
        node.children.set(keys[i] as string, created);
        node = created;
      }
    }
    return { promptTokens, common };
  }
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
