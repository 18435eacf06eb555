import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NewsLine, quickNewsLine } from "../../src/ingest/news-jsonl.js";

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(""),
  fc.constant("x"),
  fc.constant("https://a.test/p"),
  fc.constant("http://"),
  fc.constant("ftp://a.test"),
  fc.constant("HTTPS://A.TEST"),
  fc.constant("https:// a"),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);
const KEYS = ["id", "url", "title", "text", "body", "published_at", "domain"] as const;
const line = fc
  .record(Object.fromEntries(KEYS.map((k) => [k, value])) as Record<(typeof KEYS)[number], fc.Arbitrary<unknown>>, {
    requiredKeys: [],
  })
  .map((r) => JSON.parse(JSON.stringify(r)) as unknown);

describe("quickNewsLine (hot-path check of the NewsLine schema)", () => {
  it("accepts only lines the zod schema accepts, with the same fields", () => {
    fc.assert(
      fc.property(fc.oneof(line, value), (raw) => {
        const quick = quickNewsLine(raw);
        const zod = NewsLine.safeParse(raw);
        if (quick !== null) {
          expect(zod.success).toBe(true);
          if (zod.success) for (const k of KEYS) expect(quick[k]).toEqual(zod.data[k]);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("takes the fast path for ordinary rows and leaves bad ones to zod", () => {
    const ok = { url: "https://a.test/1", title: "T", text: "b", published_at: "2025-01-01" };
    expect(quickNewsLine(ok)).toBe(ok);
    expect(quickNewsLine({ ...ok, text: undefined, body: "b", id: "i", domain: "d", published_at: 5 })).not.toBeNull();
    expect(quickNewsLine({ ...ok, text: undefined })).toBeNull();
    expect(quickNewsLine({ ...ok, id: "" })).toBeNull();
    expect(quickNewsLine({ ...ok, url: "ftp://a" })).toBeNull();
    expect(quickNewsLine({ ...ok, published_at: null })).toBeNull();
    expect(quickNewsLine([ok])).toBeNull();
  });
});
