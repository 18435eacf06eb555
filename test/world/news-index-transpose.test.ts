import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transposeByTerm } from "../../src/world/news-index-build.js";

/** Random (article, term) pairs grouped by article as `NewsIndexBuilder` keeps them: distinct terms per article, 1–3 positions each. */
const PAIRS = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 })).chain(([docs, terms]) =>
  fc.tuple(
    fc.constant(terms),
    fc.array(
      fc.uniqueArray(fc.integer({ min: 0, max: terms - 1 }), { maxLength: Math.min(terms, 12) }).chain((ts) =>
        fc.tuple(
          fc.constant(ts),
          fc.array(fc.integer({ min: 1, max: 9 }), { minLength: ts.length, maxLength: ts.length }),
          fc.array(fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 3 }), {
            minLength: ts.length,
            maxLength: ts.length,
          }),
        ),
      ),
      { minLength: docs, maxLength: docs },
    ),
  ),
);

describe("transposeByTerm (the news index's counting sort in two cache-sized passes)", () => {
  it("equals one scatter by term, element for element, for any bucket size", () => {
    fc.assert(
      fc.property(PAIRS, fc.constantFrom(1, 2, 3, 7, 1 << 17), ([nTerms, docs], bucketPairs) => {
        const docStart = [0];
        const docTerm: number[] = [];
        const docFreq: number[] = [];
        const docCount: number[] = [];
        const docPos: number[] = [];
        for (const [ts, fs, ps] of docs) {
          ts.forEach((t, k) => {
            docTerm.push(t);
            docFreq.push(fs[k] as number);
            docCount.push((ps[k] as number[]).length);
            docPos.push(...(ps[k] as number[]));
          });
          docStart.push(docTerm.length);
        }
        const df = new Uint32Array(nTerms);
        const occ = new Float64Array(nTerms + 1);
        docTerm.forEach((t, p) => {
          df[t] = (df[t] as number) + 1;
          occ[t + 1] = (occ[t + 1] as number) + (docCount[p] as number);
        });
        const start = new Uint32Array(nTerms + 1);
        for (let t = 0; t < nTerms; t++) {
          start[t + 1] = (start[t] as number) + (df[t] as number);
          occ[t + 1] = (occ[t + 1] as number) + (occ[t] as number);
        }
        // the reference: one scatter by term
        const want = {
          seqs: new Int32Array(docTerm.length),
          freqs: new Uint32Array(docTerm.length),
          counts: new Uint32Array(docTerm.length),
          pos: new Uint32Array(docPos.length),
        };
        const fill = Array.from(start.subarray(0, nTerms));
        const posFill = Array.from(occ.subarray(0, nTerms));
        let src = 0;
        for (let d = 0; d < docs.length; d++) {
          for (let p = docStart[d] as number; p < (docStart[d + 1] as number); p++) {
            const t = docTerm[p] as number;
            const a = fill[t] as number;
            fill[t] = a + 1;
            want.seqs[a] = d + 1;
            want.freqs[a] = docFreq[p] as number;
            want.counts[a] = docCount[p] as number;
            for (let x = 0; x < (docCount[p] as number); x++)
              want.pos[(posFill[t] as number) + x] = docPos[src + x] as number;
            posFill[t] = (posFill[t] as number) + (docCount[p] as number);
            src += docCount[p] as number;
          }
        }
        const got = {
          seqs: new Int32Array(docTerm.length),
          freqs: new Uint32Array(docTerm.length),
          counts: new Uint16Array(docTerm.length),
          pos: new Uint16Array(docPos.length),
        };
        transposeByTerm(
          {
            docs: docs.length,
            docStart: Uint32Array.from(docStart),
            docTerm: Uint32Array.from(docTerm),
            docFreq: Uint32Array.from(docFreq),
            docCount: Uint32Array.from(docCount),
            docPos: Uint32Array.from(docPos),
          },
          { df, start, occ },
          got,
          bucketPairs,
        );
        expect([...got.seqs]).toEqual([...want.seqs]);
        expect([...got.freqs]).toEqual([...want.freqs]);
        expect([...got.counts]).toEqual([...want.counts]);
        expect([...got.pos]).toEqual([...want.pos]);
      }),
      { numRuns: 400 },
    );
  });
});
