import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { PullHttp } from "../../../src/ingest/pull/pull-http.js";
import { type ReplayServer, startReplayServer } from "./replay-server.js";

/** The pull HTTP client on a loopback server, with an injected clock and sleep (no real waiting). */

let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** a fake monotonic clock that only moves when the client sleeps */
function fakeTime() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
    at: () => t,
  };
}

describe("PullHttp", () => {
  it("spaces requests: at most `rate` in any second (the clock is fake; the instants are exact)", async () => {
    server = await startReplayServer({ "/x": { body: "ok" } });
    const clock = fakeTime();
    const starts: number[] = [];
    const http = new PullHttp({
      rate: 10,
      userAgent: "t",
      now: clock.now,
      sleep: clock.sleep,
      fetch: (u, i) => {
        starts.push(clock.at());
        return fetch(u, i);
      },
    });
    for (let i = 0; i < 25; i++) await http.get(`${server.url}/x`);
    expect(starts).toEqual([...Array(10).fill(0), ...Array(10).fill(1000), ...Array(5).fill(2000)]);
    const slow = fakeTime();
    const t2: number[] = [];
    const h2 = new PullHttp({
      rate: 0.5,
      userAgent: "t",
      now: slow.now,
      sleep: slow.sleep,
      fetch: (u, i) => {
        t2.push(slow.at());
        return fetch(u, i);
      },
    });
    for (let i = 0; i < 3; i++) await h2.get(`${server.url}/x`);
    expect(t2).toEqual([0, 2000, 4000]);
  });

  it("property: no window of one second ever holds more than `rate` request starts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 700 }), { maxLength: 40 }),
        async (rate, gaps) => {
          const clock = fakeTime();
          const starts: number[] = [];
          const http = new PullHttp({
            rate,
            userAgent: "t",
            now: clock.now,
            sleep: clock.sleep,
            fetch: async () => {
              starts.push(clock.at());
              return new Response("ok");
            },
          });
          for (const g of gaps) {
            await clock.sleep(g);
            await http.get("http://127.0.0.1:9/x");
          }
          for (const s of starts) expect(starts.filter((x) => x >= s && x < s + 1000).length).toBeLessThanOrEqual(rate);
        },
      ),
      { numRuns: 60, seed: 5 },
    );
  });

  it("retries 429/5xx honouring Retry-After, gives up with the last status; other 4xx fail at once; 404 is not_found", async () => {
    server = await startReplayServer({
      "/busy": (_req, n) =>
        n < 3 ? { status: 429, body: "slow down", headers: { "Retry-After": "7" } } : { body: "fine" },
      "/down": { status: 503, body: "maintenance" },
      "/forbidden": { status: 403, body: "no" },
    });
    const clock = fakeTime();
    const http = new PullHttp({
      rate: 100,
      userAgent: "ua/1",
      now: clock.now,
      sleep: clock.sleep,
      retries: 2,
      backoffMs: 50,
    });
    const r = await http.get(`${server.url}/busy`);
    expect(r.status === "ok" && r.body.toString()).toBe("fine");
    expect(clock.sleeps).toEqual([7000, 7000]);
    await expect(http.get(`${server.url}/down`)).rejects.toThrow(
      /\/down failed after 3 attempts: HTTP 503: maintenance/,
    );
    expect(clock.sleeps.slice(2)).toEqual([50, 100]);
    await expect(http.get(`${server.url}/forbidden`)).rejects.toThrow(/\/forbidden failed: HTTP 403: no/);
    expect(await http.get(`${server.url}/nothing`)).toEqual({ status: "not_found" });
    expect(new Set(server.requests.map((q) => q.headers["user-agent"]))).toEqual(new Set(["ua/1"]));
    await expect(http.get("file:///etc/passwd")).rejects.toThrow(/not an http\(s\) URL/);
    expect(() => new PullHttp({ rate: 0, userAgent: "x" })).toThrow(/positive/);
  });
});
