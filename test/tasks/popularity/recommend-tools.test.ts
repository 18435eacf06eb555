import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { popularityTask } from "../../../src/tasks/popularity/index.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { toolsAt } from "../../support/tools-at.js";
import { buildTinyRedditWorld, END, START, T } from "./tiny-world.js";

describe("popularity tools: recommend and recommendations", () => {
  let world: WorldStore;
  beforeAll(() => {
    world = WorldStore.open(buildTinyRedditWorld());
  });
  afterAll(() => world.close());

  it("rejections are free and clear; unknown and not-yet-posted ids give byte-identical errors", async () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    h.at(T("2026-03-01T01:30:00Z"));
    const unknown = await h.call("recommend", { root_id: "ghost" });
    const future = await h.call("recommend", { root_id: "b1" }); // posted 03-02 10:00
    expect(unknown).toEqual({ ok: false, error: 'recommend rejected: unknown reddit_post id: "ghost"' });
    expect(future).toEqual({ ok: false, error: 'recommend rejected: unknown reddit_post id: "b1"' });
    expect(await h.call("recommend", { root_id: "pre" })).toEqual({
      ok: false,
      error:
        'recommend rejected: post "pre" was created at 2026-02-28T20:00:00.000Z, before the run started (2026-03-01T00:00:00.000Z); only posts created after the run start can be recommended',
    });
    const okA1 = await h.call("recommend", { root_id: "a1" });
    expect(okA1).toEqual({
      ok: true,
      value: {
        accepted: true,
        root_id: "a1",
        recommended_at: "2026-03-01T01:30:00.000Z",
        delay_hours: 0.5,
        reveals_at: "2026-03-02T01:00:00.000Z",
        cap: { limit: 10, window_hours: 24, used: 1, remaining: 9, next_slot_at: null },
      },
    });
    expect(await h.call("recommend", { root_id: "a1" })).toEqual({
      ok: false,
      error: 'recommend rejected: post "a1" was already recommended at 2026-03-01T01:30:00.000Z (each post once)',
    });
    h.at(T("2026-03-02T02:00:00Z"));
    expect(await h.call("recommend", { root_id: "a2" })).toEqual({
      ok: false,
      error:
        'recommend rejected: post "a2" is already revealed (its 24 h cascade became public at 2026-03-02T02:00:00.000Z)',
    });
    expect(await h.call("recommend", {})).toMatchObject({ ok: false, error: expect.stringContaining("root_id") });
    const calls = h.events.filter((e) => e.type === "tool_call" && e.tool === "recommend");
    expect(calls.map((e) => e.type === "tool_call" && [e.status, e.cost_usd])).toEqual([
      ["rejected", 0],
      ["rejected", 0],
      ["rejected", 0],
      ["ok", 0],
      ["rejected", 0],
      ["rejected", 0],
      ["rejected", 0],
    ]);
    expect(h.events.filter((e) => e.type === "commitment")).toHaveLength(1);
    h.close();
  });

  it("at most 10 accepted per rolling 24 h: the 11th is refused with the freeing instant, a rejected call uses no slot", async () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    h.at(T("2026-03-02T00:20:00Z"));
    for (let i = 0; i < 10; i++) expect((await h.call("recommend", { root_id: `q${i}` })).ok).toBe(true);
    expect(await h.call("recommend", { root_id: "q10" })).toEqual({
      ok: false,
      error:
        "recommend rejected: 10 recommendations were accepted in the last 24 h (the cap); the next slot frees at 2026-03-03T00:20:00.000Z",
    });
    const st = await h.call("recommendations", {});
    expect(st.ok && (st.value as { cap: unknown }).cap).toEqual({
      limit: 10,
      window_hours: 24,
      used: 10,
      remaining: 0,
      next_slot_at: "2026-03-03T00:20:00.000Z",
    });
    h.at(T("2026-03-02T10:30:00Z"));
    expect((await h.call("recommend", { root_id: "b1" })).ok).toBe(false);
    h.at(T("2026-03-03T00:20:00Z"));
    // the oldest slot is free again; `late` (posted 03-03 00:00) is young enough
    expect(await h.call("recommend", { root_id: "late" })).toMatchObject({
      ok: true,
      value: { delay_hours: 0.333333 },
    });
    // q0..q9 (created 03-02 00:00 + i min) revealed by 03-03 00:09: only `late` is pending
    const after = await h.call("recommendations", {});
    expect(after.ok && after.value).toMatchObject({
      run_start: "2026-03-01T00:00:00.000Z",
      accepted_total: 11,
      revealed_total: 10,
      pending: [{ root_id: "late" }],
    });
    h.close();
  });

  it("recommendations() lists the pending recommendations (each leaves at its post's reveal) and counts them all", async () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    const listed = async () => {
      const r = await h.call("recommendations", {});
      if (!r.ok) throw new Error(r.error);
      const v = r.value as { pending: unknown[]; accepted_total: number; revealed_total: number };
      return { pending: v.pending, accepted_total: v.accepted_total, revealed_total: v.revealed_total };
    };
    const a1 = {
      root_id: "a1",
      recommended_at: "2026-03-01T01:30:00.000Z",
      delay_hours: 0.5,
      reveals_at: "2026-03-02T01:00:00.000Z",
    };
    const a4 = {
      root_id: "a4",
      recommended_at: "2026-03-01T10:00:00.000Z",
      delay_hours: 6,
      reveals_at: "2026-03-02T04:00:00.000Z",
    };
    h.at(T("2026-03-01T01:30:00Z"));
    expect(await listed()).toEqual({ pending: [], accepted_total: 0, revealed_total: 0 });
    expect((await h.call("recommend", { root_id: "a1" })).ok).toBe(true);
    expect(await listed()).toEqual({ pending: [a1], accepted_total: 1, revealed_total: 0 });
    h.at(T("2026-03-01T10:00:00Z"));
    expect((await h.call("recommend", { root_id: "a4" })).ok).toBe(true);
    expect(await listed()).toEqual({ pending: [a1, a4], accepted_total: 2, revealed_total: 0 });
    // entries are made once per recommendation, but each call hands out its own: changing one changes no other call's
    ((await listed()).pending[0] as { root_id: string }).root_id = "changed";
    h.at(T("2026-03-02T00:59:59.999Z"));
    expect(await listed()).toEqual({ pending: [a1, a4], accepted_total: 2, revealed_total: 0 });
    h.at(T("2026-03-02T01:00:00Z"));
    expect(await listed()).toEqual({ pending: [a4], accepted_total: 2, revealed_total: 1 });
    h.at(T("2026-03-02T04:00:00Z"));
    expect(await listed()).toEqual({ pending: [], accepted_total: 2, revealed_total: 2 });
    h.close();
  });

  it("the Reddit data tools are priced and hide unrevealed cascades; recommend and recommendations are free", async () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    expect(h.names()).toEqual(["list_posts", "get_post", "get_cascade", "quota", "recommend", "recommendations"]);
    h.at(T("2026-03-01T01:30:00Z"));
    const p = await h.call("get_post", { id: "a1" });
    expect(p).toMatchObject({ ok: true, value: { num_comments: 30, descendants_24h: null } });
    h.at(T("2026-03-02T01:00:00Z"));
    expect(await h.call("get_post", { id: "a1" })).toMatchObject({ ok: true, value: { descendants_24h: 60 } });
    const cost = h.events.flatMap((e) => (e.type === "tool_call" ? [[e.tool, e.cost_usd]] : []));
    expect(cost).toEqual([
      ["get_post", 0.00024],
      ["get_post", 0.00024],
    ]);
    h.close();
  });
});
