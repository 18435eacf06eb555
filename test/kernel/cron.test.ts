import { Cron } from "croner";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertCronExpression, CRON_OPTIONS, compileCron, cronNext, nextCronFire } from "../../src/kernel/cron.js";

const T0 = Date.UTC(2024, 0, 1);

describe("cron helpers", () => {
  it("fires strictly after the given instant", () => {
    expect(nextCronFire("0 * * * *", Date.UTC(2024, 0, 1, 10))).toBe(Date.UTC(2024, 0, 1, 11));
    expect(nextCronFire("0 * * * *", Date.UTC(2024, 0, 1, 10) - 1)).toBe(Date.UTC(2024, 0, 1, 10));
    expect(nextCronFire("30 0 * * *", Date.UTC(2024, 0, 1, 0, 30, 0, 500))).toBe(Date.UTC(2024, 0, 2, 0, 30));
    expect(nextCronFire("0 9 * * 1-5", Date.UTC(2024, 0, 5, 9))).toBe(Date.UTC(2024, 0, 8, 9)); // Fri -> Mon
    expect(nextCronFire("0 0 30 2 *", T0)).toBeNull();
  });

  it("throws errors naming the expression", () => {
    expect(() => assertCronExpression("99 * * * *")).toThrow('invalid cron expression "99 * * * *"');
    expect(() => assertCronExpression("")).toThrow('invalid cron expression ""');
    expect(() => assertCronExpression("*/5 * * * *")).not.toThrow();
  });

  it("utcOffset 0 agrees with timezone UTC", () => {
    const exprs = ["0 * * * *", "*/7 * * * *", "30 0 * * *", "0 9 * * 1-5", "15 14 1 * *", "0 22 * * 0", "0 0 29 2 *"];
    fc.assert(
      fc.property(fc.constantFrom(...exprs), fc.integer({ min: 0, max: 4_000_000_000_000 }), (expr, t) => {
        const reference = new Cron(expr, { timezone: "UTC", paused: true }).nextRun(new Date(t));
        expect(cronNext(compileCron(expr), t)).toBe(reference === null ? null : reference.getTime());
      }),
      { numRuns: 300 },
    );
    expect(CRON_OPTIONS.paused).toBe(true);
  });
});
