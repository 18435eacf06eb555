import { createHash, hash } from "node:crypto";

/**
 * Opaque ids for the synthetic world (DESIGN invariant 2, data.md "Ids"): an agent-visible id is a
 * keyed hash of the world seed, the row kind and the row's own content, never a counter, an
 * ordering or a count of other rows. So an id tells nothing about how many rows came before, how
 * many will come, or which future a world has: two worlds identical up to T give every row visible
 * before T the same id.
 *
 * A minter remembers the ids it gave per kind and throws on a collision (two different contents
 * with the same truncated hash), which at the widths below is astronomically rare: the error names
 * the kind and both contents, never silently renumbers.
 */
export class IdMinter {
  /** per kind: id → the content it was minted for */
  private readonly seen = new Map<string, Map<string, string>>();
  constructor(private readonly seed: number) {}

  /** lower-case hex digest of (seed, kind, content), `digits` long */
  hex(kind: string, content: readonly (string | number)[], digits: number): string {
    const key = JSON.stringify(content);
    // the one-shot digest: the same bytes as createHash().update().digest(), without a Hash object per id
    const h = hash("sha256", `relive-synth-id\0${this.seed}\0${kind}\0${key}`, "hex");
    return this.claim(kind, h.slice(0, digits), key);
  }

  /** decimal digits of (seed, kind, content), `digits` long (for number-shaped ids like accessions) */
  decimal(kind: string, content: readonly (string | number)[], digits: number): string {
    const key = JSON.stringify(content);
    const h = createHash("sha256").update(`relive-synth-id\0${this.seed}\0${kind}\0${key}`).digest();
    const n = h.readBigUInt64BE(0) % 10n ** BigInt(digits);
    return this.claim(kind, n.toString().padStart(digits, "0"), key);
  }

  private claim(kind: string, id: string, key: string): string {
    let ids = this.seen.get(kind);
    if (ids === undefined) {
      ids = new Map();
      this.seen.set(kind, ids);
    }
    const prev = ids.get(id);
    if (prev !== undefined && prev !== key)
      throw new Error(`synth id collision for ${kind} ${id}: ${prev} and ${key} (seed ${this.seed}); widen the id`);
    ids.set(id, key);
    return id;
  }
}
