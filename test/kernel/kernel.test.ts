import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/common/time.js";
import { type Actor, Kernel, type Wake } from "../../src/kernel/kernel.js";

const T0 = Date.UTC(2024, 0, 1); // a Monday, 00:00 UTC

/** Real latency, tests only: proves kernel order never depends on how long actor work takes. */
function jitter(maxMs = 5): Promise<void> {
  return delay(Math.random() * maxMs);
}

function h(n: number): number {
  return T0 + n * HOUR_MS;
}

describe("Kernel ordering", () => {
  it("resumes simultaneous actors one at a time in waiter-id order, whatever their latency", async () => {
    const k = new Kernel({ start: T0, end: h(4) });
    const log: string[] = [];
    let active = 0;
    let maxActive = 0;
    // spawned out of id order on purpose
    for (const id of ["c", "a", "b10", "b9"]) {
      k.spawn(id, async (self) => {
        for (;;) {
          active++;
          maxActive = Math.max(maxActive, active);
          log.push(`${(self.now() - T0) / HOUR_MS}:${id}:in`);
          await jitter();
          log.push(`${(self.now() - T0) / HOUR_MS}:${id}:out`);
          active--;
          const w = await self.sleepUntil(self.now() + HOUR_MS);
          if (w.reason === "end") return;
        }
      });
    }
    await k.run();
    expect(maxActive).toBe(1);
    const expected: string[] = [];
    for (let t = 0; t < 4; t++) {
      for (const id of ["a", "b10", "b9", "c"]) expected.push(`${t}:${id}:in`, `${t}:${id}:out`);
    }
    expect(log).toEqual(expected);
    expect(k.now()).toBe(h(4));
  });

  it("keeps the clock frozen while an actor runs, even across real async work", async () => {
    const k = new Kernel({ start: T0, end: h(10) });
    const log: string[] = [];
    k.spawn("a", async (self) => {
      await delay(15);
      log.push(`a-after-work:${self.now() - T0}`);
      await self.sleepUntil(h(1));
      log.push(`a-woke:${self.now() - T0}`);
    });
    k.spawn("b", async (self) => {
      // b is due one minute after start, but a is still working: time must not move
      const w = await self.sleepUntil(T0 + MINUTE_MS);
      log.push(`b-woke:${w.at - T0}:${w.reason}`);
      await delay(10);
      expect(self.now()).toBe(T0 + MINUTE_MS);
    });
    await k.run();
    expect(log).toEqual(["a-after-work:0", `b-woke:${MINUTE_MS}:sleep`, `a-woke:${HOUR_MS}`]);
  });

  it("runs at() callbacks before actors due at the same instant, in (t, insertion) order, after onAdvance", async () => {
    const k = new Kernel({ start: T0, end: h(5) });
    const log: string[] = [];
    k.onAdvance((from, to) => {
      log.push(`advance ${(from - T0) / HOUR_MS}->${(to - T0) / HOUR_MS} now=${(k.now() - T0) / HOUR_MS}`);
    });
    k.at(h(2), (t) => {
      log.push(`at2-first ${(t - T0) / HOUR_MS}`);
    });
    k.at(h(1), async () => {
      await jitter();
      log.push("at1");
    });
    k.at(h(2), () => {
      log.push("at2-second");
    });
    k.at(T0, () => {
      log.push("at0");
    });
    k.spawn("z", async (self) => {
      log.push("z start");
      const w = await self.sleepUntil(h(2));
      log.push(`z ${w.reason} ${(w.at - T0) / HOUR_MS}`);
      // a callback for the current instant runs as soon as z waits, before y is resumed
      k.at(self.now(), () => {
        log.push("at2-late");
      });
      expect(() => k.at(self.now() - 1, () => {})).toThrow(/in the past/);
      await self.sleepUntil(h(3));
    });
    k.spawn("y", async (self) => {
      log.push("y start");
      await self.sleepUntil(h(2));
      log.push("y 2");
    });
    await k.run();
    expect(log).toEqual([
      "at0",
      "y start",
      "z start",
      "advance 0->1 now=1",
      "at1",
      "advance 1->2 now=2",
      "at2-first 2",
      "at2-second",
      "y 2",
      "z sleep 2",
      "at2-late",
      "advance 2->3 now=3",
      "advance 3->5 now=5",
    ]);
  });

  it("runs at() callbacks scheduled at or after end at end, before the end wakes, ordered by requested time", async () => {
    const k = new Kernel({ start: T0, end: h(2) });
    const log: string[] = [];
    k.at(h(9), (t) => {
      log.push(`at9 ran at ${(t - T0) / HOUR_MS}`);
    });
    k.at(h(2), () => {
      log.push("at2");
    });
    k.spawn("a", async (self) => {
      const w = await self.sleepUntil(h(100));
      log.push(`a ${w.reason} ${(w.at - T0) / HOUR_MS}`);
    });
    await k.run();
    expect(log).toEqual(["at2", "at9 ran at 2", "a end 2"]);
  });

  it("starts actors spawned during the run at the current instant", async () => {
    const k = new Kernel({ start: T0, end: h(3) });
    const log: string[] = [];
    k.spawn("parent", async (self) => {
      await self.sleepUntil(h(1));
      k.spawn("child", async (c) => {
        log.push(`child start ${(c.now() - T0) / HOUR_MS}`);
        await c.sleepUntil(h(2));
        log.push("child 2");
      });
      log.push("parent spawned");
      await self.sleepUntil(h(2));
      log.push("parent 2");
    });
    await k.run();
    expect(log).toEqual(["parent spawned", "child start 1", "child 2", "parent 2"]);
  });
});

describe("Kernel triggers", () => {
  it("cron fires strictly after install time and strictly after each fire", async () => {
    const k = new Kernel({ start: T0, end: h(4) });
    const wakes: Wake[] = [];
    k.spawn("a", async (self) => {
      // installed exactly at 00:00, which matches the expression: the first fire is 01:00
      k.addCron("a", "hourly", "0 * * * *", "check news");
      expect(k.listTriggers("a")).toEqual([
        { id: "hourly", kind: "cron", cron: "0 * * * *", next: h(1), note: "check news" },
      ]);
      for (;;) {
        const w = await self.waitForTrigger();
        wakes.push(w);
        if (w.reason === "end") return;
      }
    });
    await k.run();
    expect(wakes).toEqual([
      { at: h(1), reason: "cron", triggerId: "hourly" },
      { at: h(2), reason: "cron", triggerId: "hourly" },
      { at: h(3), reason: "cron", triggerId: "hourly" },
      { at: h(4), reason: "end" },
    ]);
    // end is exclusive: the 04:00 entry never fired and is still the next one
    expect(k.listTriggers("a")[0]?.next).toBe(h(4));
  });

  it("simultaneous entries fire in id order at the same instant, one per wait", async () => {
    const k = new Kernel({ start: T0, end: h(3) });
    const wakes: string[] = [];
    k.addCron("a", "b-entry", "0 */2 * * *");
    k.addCron("a", "a-entry", "0 */2 * * *");
    k.addOnce("a", "c-once", h(2));
    k.spawn("a", async (self) => {
      for (;;) {
        const w = await self.waitForTrigger();
        wakes.push(`${(w.at - T0) / HOUR_MS}:${w.reason}:${w.triggerId ?? "-"}`);
        if (w.reason === "end") return;
        await jitter(2);
      }
    });
    await k.run();
    expect(wakes).toEqual(["2:cron:a-entry", "2:cron:b-entry", "2:trigger:c-once", "3:end:-"]);
  });

  it("a one-shot trigger fires once and is removed; a trigger due at or before the sleep target wins", async () => {
    const k = new Kernel({ start: T0, end: h(10) });
    const wakes: Wake[] = [];
    k.spawn("a", async (self) => {
      k.addOnce("a", "early", h(2), "deadline");
      k.addOnce("a", "tie", h(5));
      expect(k.listTriggers("a").map((t) => t.id)).toEqual(["early", "tie"]);
      expect(k.listTriggers("a")[0]).toEqual({ id: "early", kind: "once", at: h(2), next: h(2), note: "deadline" });
      wakes.push(await self.sleepUntil(h(3)));
      expect(k.listTriggers("a").map((t) => t.id)).toEqual(["tie"]);
      wakes.push(await self.sleepUntil(h(3)));
      wakes.push(await self.sleepUntil(h(5)));
      wakes.push(await self.sleepUntil(h(6)));
      expect(k.listTriggers("a")).toEqual([]);
    });
    await k.run();
    expect(wakes).toEqual([
      { at: h(2), reason: "trigger", triggerId: "early" },
      { at: h(3), reason: "sleep" },
      { at: h(5), reason: "trigger", triggerId: "tie" },
      { at: h(6), reason: "sleep" },
    ]);
  });

  it("triggers added or removed by the environment while an actor waits reschedule it", async () => {
    const k = new Kernel({ start: T0, end: 3 * DAY_MS + T0 });
    const wakes: Wake[] = [];
    k.at(h(1), () => {
      k.addOnce("a", "env", h(3));
      k.addOnce("a", "doomed", h(20));
    });
    k.at(h(4), () => {
      expect(k.removeTrigger("a", "doomed")).toBe(true);
      expect(k.removeTrigger("a", "doomed")).toBe(false);
    });
    k.spawn("a", async (self) => {
      wakes.push(await self.sleepUntil(h(10)));
      wakes.push(await self.waitForTrigger());
    });
    await k.run();
    // after "doomed" is removed there is nothing pending: the fallback is the next midnight
    expect(wakes).toEqual([
      { at: h(3), reason: "trigger", triggerId: "env" },
      { at: h(24), reason: "fallback" },
    ]);
  });

  it("falls back to the next 00:00 UTC strictly after now when nothing is pending", async () => {
    const k = new Kernel({ start: T0, end: T0 + 3 * DAY_MS });
    const wakes: Wake[] = [];
    k.spawn("a", async (self) => {
      wakes.push(await self.waitForTrigger()); // from exactly midnight: the next day's
      wakes.push(await self.sleepUntil(T0 + DAY_MS + 7 * HOUR_MS));
      wakes.push(await self.waitForTrigger());
      wakes.push(await self.waitForTrigger()); // next fallback is at end: "end"
    });
    await k.run();
    expect(wakes).toEqual([
      { at: T0 + DAY_MS, reason: "fallback" },
      { at: T0 + DAY_MS + 7 * HOUR_MS, reason: "sleep" },
      { at: T0 + 2 * DAY_MS, reason: "fallback" },
      { at: T0 + 3 * DAY_MS, reason: "end" },
    ]);
  });

  it("rejects invalid trigger arguments", async () => {
    const k = new Kernel({ start: T0, end: h(5) });
    expect(() => k.addCron("a", "x", "61 * * * *")).toThrow('invalid cron expression "61 * * * *"');
    expect(() => k.addCron("a", "x", "not a cron")).toThrow(/"not a cron"/);
    expect(() => k.addOnce("a", "x", T0)).toThrow(/must be after now/);
    k.addOnce("a", "x", h(1));
    expect(() => k.addOnce("a", "x", h(2))).toThrow(/already has a trigger "x"/);
    expect(() => k.addCron("a", "x", "* * * * *")).toThrow(/already has a trigger "x"/);
    expect(k.listTriggers("nobody")).toEqual([]);
    expect(k.removeTrigger("nobody", "x")).toBe(false);
    // a cron that never fires again is listed with next null and is not pending
    k.addCron("a", "never", "0 0 30 2 *");
    expect(k.listTriggers("a").find((t) => t.id === "never")?.next).toBeNull();
  });
});

describe("Kernel end and errors", () => {
  it("wakes everyone with end, then resolves later waits immediately with end", async () => {
    const k = new Kernel({ start: T0, end: h(2) });
    const wakes: Wake[] = [];
    let endHooks = 0;
    k.onAdvance((_from, to) => {
      if (to === h(2)) endHooks++;
    });
    k.spawn("a", async (self) => {
      k.addOnce("a", "at-end", h(2));
      wakes.push(await self.sleepUntil(h(1)));
      wakes.push(await self.sleepUntil(h(2))); // end is exclusive: a sleep to end is "end"
      wakes.push(await self.sleepUntil(h(50)));
      wakes.push(await self.waitForTrigger());
      expect(self.now()).toBe(h(2));
    });
    k.spawn("b", async (self) => {
      wakes.push(await self.waitForTrigger());
    });
    await k.run();
    expect(wakes).toEqual([
      { at: h(1), reason: "sleep" },
      { at: h(2), reason: "end" },
      { at: h(2), reason: "end" },
      { at: h(2), reason: "end" },
      { at: h(2), reason: "end" },
    ]);
    expect(endHooks).toBe(1);
  });

  it("still advances the clock to end when every actor returns early", async () => {
    const k = new Kernel({ start: T0, end: h(6) });
    const settled: number[] = [];
    k.at(h(4), (t) => {
      settled.push(t);
    });
    k.onAdvance((_from, to) => {
      // a hook may still schedule work at the final instant
      if (to === h(6))
        k.at(to, (t) => {
          settled.push(t);
        });
    });
    k.spawn("a", async () => {});
    await k.run();
    expect(settled).toEqual([h(4), h(6)]);
    expect(k.now()).toBe(h(6));
  });

  it("sleepUntil(t < now) throws in the actor", async () => {
    const k = new Kernel({ start: T0, end: h(3) });
    let message = "";
    k.spawn("a", async (self) => {
      await self.sleepUntil(h(1));
      try {
        await self.sleepUntil(h(1) - 1);
      } catch (e) {
        message = (e as Error).message;
      }
      await self.sleepUntil(h(1)); // t == now is allowed
    });
    await k.run();
    expect(message).toMatch(/actor "a" sleepUntil\(.*\) is in the past/);
  });

  it("rejects run() with the actor id when a body throws", async () => {
    const k = new Kernel({ start: T0, end: h(3) });
    k.spawn("ok", async (self) => {
      await self.sleepUntil(h(2));
    });
    k.spawn("broken", async (self) => {
      await self.sleepUntil(h(1));
      throw new Error("boom");
    });
    await expect(k.run()).rejects.toThrow('actor "broken" failed: boom');
  });

  it("refuses waits from an actor that is not running and a second run()", async () => {
    const k = new Kernel({ start: T0, end: h(3) });
    let stray: Actor | undefined;
    let strayError = "";
    k.spawn("a", async (self) => {
      stray = self;
      await self.sleepUntil(h(2));
    });
    k.spawn("b", async (self) => {
      try {
        await stray?.sleepUntil(h(1));
      } catch (e) {
        strayError = (e as Error).message;
      }
      await self.sleepUntil(h(1));
    });
    await k.run();
    expect(strayError).toBe('actor "a" cannot sleepUntil: it is already waiting');
    await expect(k.run()).rejects.toThrow(/only once/);
    expect(() => new Kernel({ start: T0, end: T0 })).toThrow(RangeError);
  });

  it("handles a 365-day run with an hourly waker (8,760 wakes)", async () => {
    const end = T0 + 365 * DAY_MS;
    const k = new Kernel({ start: T0, end });
    let wakes = 0;
    let last = 0;
    k.spawn("agent", async (self) => {
      k.addCron("agent", "hourly", "0 * * * *");
      for (;;) {
        const w = await self.waitForTrigger();
        if (w.reason === "end") return;
        expect(w.at).toBe(last === 0 ? h(1) : last + HOUR_MS);
        last = w.at;
        wakes++;
      }
    });
    await k.run();
    expect(wakes).toBe(365 * 24 - 1);
    expect(last).toBe(end - HOUR_MS);
  });
});
