import { setTimeout as delay, setImmediate as immediate } from "node:timers/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS, MINUTE_MS } from "../../src/common/time.js";
import { Kernel } from "../../src/kernel/kernel.js";

const T0 = Date.UTC(2024, 2, 30, 18); // crosses a day boundary (and a European DST change, irrelevant in UTC)

type Op =
  | { kind: "sleep"; minutes: number }
  | { kind: "wait" }
  | { kind: "once"; minutes: number }
  | { kind: "cron"; expr: string }
  | { kind: "remove" }
  | { kind: "env"; minutes: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("sleep" as const), minutes: fc.integer({ min: 0, max: 240 }) }),
  fc.record({ kind: fc.constant("wait" as const) }),
  fc.record({ kind: fc.constant("once" as const), minutes: fc.integer({ min: 1, max: 600 }) }),
  fc.record({
    kind: fc.constant("cron" as const),
    expr: fc.constantFrom("0 * * * *", "30 */2 * * *", "0 0 * * *", "15,45 */3 * * *", "0 12 * * *"),
  }),
  fc.record({ kind: fc.constant("remove" as const) }),
  fc.record({ kind: fc.constant("env" as const), minutes: fc.integer({ min: 0, max: 300 }) }),
);

const scenarioArb = fc.record({
  actors: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom("a", "b", "B", "c1", "c10", "c2"),
      ops: fc.array(opArb, { minLength: 1, maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 4, selector: (a) => a.id },
  ),
  hours: fc.integer({ min: 2, max: 40 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

/** Real, random latency (tests only): microtask, macrotask or timer hops. */
async function latency(): Promise<void> {
  const r = Math.random();
  if (r < 0.2) return;
  if (r < 0.6) {
    for (let i = Math.floor(Math.random() * 3); i >= 0; i--) await immediate();
    return;
  }
  await delay(Math.random() * 2);
}

interface Trace {
  events: string[];
  times: number[];
  maxActive: number;
}

async function simulate(s: Scenario): Promise<Trace> {
  const k = new Kernel({ start: T0, end: T0 + s.hours * 3_600_000 });
  const events: string[] = [];
  const times: number[] = [];
  let active = 0;
  let maxActive = 0;
  const record = (what: string) => {
    times.push(k.now());
    events.push(`${k.now() - T0}:${what}`);
  };
  for (const { id, ops } of s.actors) {
    k.spawn(id, async (self) => {
      let n = 0;
      const enter = async (what: string) => {
        active++;
        maxActive = Math.max(maxActive, active);
        record(`${id}:${what}`);
        await latency();
        active--;
      };
      await enter("start");
      for (const op of ops) {
        switch (op.kind) {
          case "sleep": {
            const w = await self.sleepUntil(self.now() + op.minutes * MINUTE_MS);
            await enter(`${w.reason}:${w.triggerId ?? ""}`);
            break;
          }
          case "wait": {
            const w = await self.waitForTrigger();
            await enter(`${w.reason}:${w.triggerId ?? ""}`);
            break;
          }
          case "once":
            if (self.now() < k.end) k.addOnce(id, `t${n++}`, self.now() + op.minutes * MINUTE_MS);
            break;
          case "cron":
            k.addCron(id, `t${n++}`, op.expr);
            break;
          case "remove": {
            const first = k.listTriggers(id)[0];
            if (first !== undefined) k.removeTrigger(id, first.id);
            break;
          }
          case "env": {
            const target = self.now() + op.minutes * MINUTE_MS;
            k.at(target, () => {
              record(`env:${id}`);
              if (target < k.end - MINUTE_MS) k.addOnce(id, `e${n++}`, target + MINUTE_MS);
            });
            break;
          }
          default: {
            const never: never = op;
            throw new Error(`unknown op ${JSON.stringify(never)}`);
          }
        }
      }
    });
  }
  await k.run();
  expect(k.now()).toBe(k.end);
  return { events, times, maxActive };
}

describe("Kernel properties", () => {
  it("resumptions never go back in time, never overlap, and are identical across runs with random latency", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const first = await simulate(s);
        const second = await simulate(s);
        for (let i = 1; i < first.times.length; i++) {
          expect(first.times[i]).toBeGreaterThanOrEqual(first.times[i - 1] as number);
        }
        expect(first.maxActive).toBe(1);
        expect(second.maxActive).toBe(1);
        expect(second.events).toEqual(first.events);
        // every actor starts at `start`, in id order, before anything else happens
        const starts = first.events.filter((e) => e.endsWith(":start"));
        const ids = s.actors.map((a) => a.id).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        expect(starts).toEqual(ids.map((id) => `0:${id}:start`));
      }),
      { numRuns: 40 },
    );
  });

  it("wakes actors due at the same instant in waiter-id order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        async (ids, rounds) => {
          const k = new Kernel({ start: T0, end: T0 + DAY_MS });
          const order: string[] = [];
          for (const id of ids) {
            k.spawn(id, async (self) => {
              for (let r = 1; r <= rounds; r++) {
                await self.sleepUntil(T0 + r * 60 * MINUTE_MS);
                order.push(`${r}:${id}`);
                await latency();
              }
            });
          }
          await k.run();
          const sorted = [...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
          const expected: string[] = [];
          for (let r = 1; r <= rounds; r++) for (const id of sorted) expected.push(`${r}:${id}`);
          expect(order).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
