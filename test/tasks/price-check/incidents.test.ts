import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hash32, keyedUniform, SplitMix32 } from "../../../src/common/random.js";
import { VENUE_TABLE } from "../../../src/tasks/price-check/incident-table.js";
import { drawIncidentTrace, IncidentIndex } from "../../../src/tasks/price-check/incidents.js";

const WINDOW = { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 2, 29) };
const SYMS = ["BTC-USD", "ETH-USD", "SOL-USD"];
const VENUES = ["kraken", "binance", "coinbase"].map((venue) => ({ venue, symbols: SYMS }));

describe("seeded randomness", () => {
  it("SplitMix32, hash32 and keyedUniform are pinned", () => {
    const r = new SplitMix32(0);
    expect([r.nextU32(), r.nextU32(), r.nextU32()]).toEqual([2462723854, 1020716019, 454327756]);
    expect([hash32(""), hash32("kraken")]).toEqual([2872998923, 823989312]);
    expect(keyedUniform(1, "kraken", 5)).toBe(0.5910467538051307);
    expect(keyedUniform(1, "kraken", 6)).not.toBe(keyedUniform(1, "kraken", 5));
  });
});

describe("drawIncidentTrace", () => {
  it("is a pure function of (table, seed, window, venues)", () => {
    const a = drawIncidentTrace(VENUE_TABLE, 42, WINDOW, VENUES);
    expect(drawIncidentTrace(VENUE_TABLE, 42, WINDOW, [...VENUES].reverse())).toEqual(a);
    expect(drawIncidentTrace(VENUE_TABLE, 43, WINDOW, VENUES)).not.toEqual(a);
    expect(a.length).toBeGreaterThan(20);
    for (const k of ["outage", "stale", "spike"]) expect(a.some((i) => i.kind === k)).toBe(true);
  });

  it("adding a venue or symbol never shifts another stream's draws", () => {
    const a = drawIncidentTrace(VENUE_TABLE, 9, WINDOW, VENUES);
    const b = drawIncidentTrace(VENUE_TABLE, 9, WINDOW, [
      ...VENUES.map((v) => ({ ...v, symbols: [...v.symbols, "ADA-USD"] })),
      { venue: "binanceus", symbols: SYMS },
    ]);
    const strip = (xs: typeof a) =>
      xs.filter((i) => i.venue !== "binanceus" && !(i.kind === "spike" && i.symbol === "ADA-USD"));
    expect(strip(b)).toEqual(a);
  });

  it("property: incidents lie in the window, episodes of one kind never overlap, spikes are ±size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 40 }), (seed, days) => {
        const window = { start: WINDOW.start, end: WINDOW.start + days * 86_400_000 };
        const trace = drawIncidentTrace(VENUE_TABLE, seed, window, VENUES);
        const lastEnd = new Map<string, number>();
        for (const i of trace) {
          const spec = VENUE_TABLE[i.venue]!;
          if (i.kind === "spike") {
            expect(i.t >= window.start && i.t < window.end).toBe(true);
            expect([1 + spec.spike.size, 1 - spec.spike.size]).toContain(i.factor);
            continue;
          }
          expect(i.start >= window.start && i.start < window.end).toBe(true);
          const p = i.kind === "outage" ? spec.outage : spec.stale;
          const len = (i.end - i.start) / 60_000;
          expect(len >= p.min_minutes - 1e-9 && len <= p.max_minutes + 1e-9).toBe(true);
          const k = `${i.venue}:${i.kind}`;
          expect(i.start).toBeGreaterThanOrEqual(lastEnd.get(k) ?? window.start);
          lastEnd.set(k, i.end);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("IncidentIndex finds what is in force at t ([start, end))", () => {
    const idx = new IncidentIndex([
      { kind: "outage", venue: "kraken", start: 100, end: 200, mode: "error", status: 503 },
      { kind: "stale", venue: "kraken", start: 150, end: 300 },
      { kind: "spike", venue: "kraken", symbol: "BTC-USD", t: 250, factor: 1.015 },
    ]);
    expect(idx.outageAt("kraken", 99)).toBeNull();
    expect(idx.outageAt("kraken", 100)?.status).toBe(503);
    expect(idx.outageAt("kraken", 200)).toBeNull();
    expect(idx.outageAt("binance", 150)).toBeNull();
    expect(idx.staleAt("kraken", 299)?.start).toBe(150);
    expect(idx.spikesIn("kraken", "BTC-USD", 250, 251)).toHaveLength(1);
    expect(idx.spikesIn("kraken", "BTC-USD", 0, 250)).toHaveLength(0);
  });
});
