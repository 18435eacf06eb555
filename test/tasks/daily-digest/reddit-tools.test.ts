import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "../../../src/kernel/rate-limiter.js";
import { REDDIT_LIMITER, redditDataTools, redditLimiters } from "../../../src/tasks/reddit-tools.js";
import type { ToolDef, ToolResult } from "../../../src/tools/tool.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildTinyWorld, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
const clock = { t: 0 };
let tools: ToolDef[];
let limiter: SlidingWindowLimiter;

beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
  limiter = new SlidingWindowLimiter({ limit: 5, windowMs: 600_000 });
  tools = redditDataTools({
    view: world.at(() => clock.t),
    callUsd: 0.00024,
    limiter,
    rate: { limit: 5, windowMs: 600_000 },
  });
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

async function call(name: string, args: unknown): Promise<ToolResult> {
  const tool = tools.find((x) => x.name === name)!;
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) return { ok: false, error: parsed.error.message };
  return tool.invoke(parsed.data, { now: () => clock.t, actor: "agent" });
}
const value = (r: ToolResult) => {
  if (!r.ok) throw new Error(r.error);
  return r.value as Record<string, unknown> & { posts: { id: string; num_comments: number; body: string }[] };
};

describe("reddit data tools", () => {
  it("are priced, share the reddit limiter, and quota is free", () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const n of ["list_posts", "get_post", "get_cascade"]) {
      expect(byName[n]!.limiter).toBe(REDDIT_LIMITER);
      expect(byName[n]!.priceOf(n === "list_posts" ? {} : { id: "x" })).toBe(0.00024);
      expect(byName[n]!.kind).toBe("data");
    }
    expect(byName.quota!.priceOf({})).toBe(0);
    expect(byName.quota!.limiter).toBeUndefined();
    expect(Object.keys(redditLimiters())).toEqual([REDDIT_LIMITER]);
  });

  it("list_posts: until is exclusive, since inclusive, sort by visible comments, ISO or ms", async () => {
    clock.t = T("2026-03-02T12:30:00Z");
    const page = value(
      await call("list_posts", { since: "2026-03-01T12:00:00Z", until: T("2026-03-02T12:00:00Z"), sort: "comments" }),
    );
    const ids = page.posts.map((p) => p.id);
    expect(page.total).toBe(12); // h0..h9, below, exact: not old (1 ms early), not fresh (at until)
    expect(ids.slice(0, 3)).toEqual(["h9", "h8", "h7"]);
    expect(ids).not.toContain("fresh");
    expect(ids).not.toContain("old");
    expect(page.next_offset).toBeNull();
    expect(page.posts[0]!.body.endsWith("…")).toBe(true);
  });

  it("list_posts counts only comments visible now and hides future posts", async () => {
    clock.t = T("2026-03-01T12:05:00Z"); // h0 created 12:00, 5 comments so far; h1 not yet posted
    const page = value(await call("list_posts", { subreddit: "alpha" }));
    expect(page.posts.map((p) => [p.id, p.num_comments])).toEqual([["h0", 5]]);
    expect(page.total).toBe(1);
  });

  it("list_posts pages by 50 and rejects unreadable times for free", async () => {
    clock.t = T("2026-03-04T00:00:00Z");
    const p0 = value(await call("list_posts", { order: "asc" }));
    expect(p0.posts).toHaveLength(24);
    expect(p0.posts[0]!.id).toBe("d0");
    const p1 = value(await call("list_posts", { offset: 20 }));
    expect(p1.posts).toHaveLength(4);
    expect(await call("list_posts", { since: 1772366400 })).toEqual({
      ok: false,
      error: "since: 1772366400 looks like epoch seconds; pass epoch milliseconds or an ISO-8601 string",
    });
  });

  it("unknown and not-yet-visible ids give byte-identical free rejections", async () => {
    clock.t = T("2026-03-01T12:00:00Z");
    const future = await call("get_post", { id: "h5" });
    const unknown = await call("get_post", { id: "zz" });
    expect(future).toEqual({ ok: false, error: 'unknown reddit_post id: "h5"' });
    expect(unknown).toEqual({ ok: false, error: 'unknown reddit_post id: "zz"' });
    expect(await call("get_cascade", { id: "h5" })).toEqual(future);
  });

  it("get_post reveals the 24 h cascade only after 24 h; get_cascade gives the visible prefix", async () => {
    clock.t = T("2026-03-01T21:30:00Z");
    const before = value(await call("get_post", { id: "exact" }));
    expect(before).toMatchObject({
      id: "exact",
      num_comments: 30,
      descendants_24h: null,
      created: "2026-03-01T21:00:00.000Z",
    });
    const cascade = value(await call("get_cascade", { id: "exact" })) as unknown as {
      comments: { id: string }[];
      total: number;
      next_offset: number | null;
    };
    expect(cascade.total).toBe(30);
    expect(cascade.comments.map((c) => c.id).slice(0, 2)).toEqual(["exact_c0", "exact_c1"]);
    clock.t = T("2026-03-02T21:00:00Z");
    expect(value(await call("get_post", { id: "exact" }))).toMatchObject({ num_comments: 50, descendants_24h: 50 });
  });

  it("quota reads the shared limiter", async () => {
    clock.t = T("2026-03-05T00:00:00Z");
    expect(value(await call("quota", {}))).toEqual({
      remaining: 5,
      limit: 5,
      window_minutes: 10,
      price_usd_per_call: 0.00024,
    });
    limiter.tryAcquire(clock.t);
    limiter.tryAcquire(clock.t);
    expect(value(await call("quota", {})).remaining).toBe(3);
  });
});
