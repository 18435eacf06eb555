import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dutyRoster } from "../../../src/tasks/broker-ops/duties.js";
import { brokerOpsTask } from "../../../src/tasks/broker-ops/index.js";
import { openDutyState } from "../../../src/tasks/broker-ops/run-view.js";
import { DeskRecords } from "../../../src/tasks/broker-ops/web/desk-records.js";
import { brokerEnv } from "./env-harness.js";
import { bookIds, brokerWorldDir, END, START, T } from "./world.js";

let dir: string;
const opened: ReturnType<typeof brokerEnv>[] = [];
beforeAll(() => {
  dir = brokerWorldDir();
});
afterAll(async () => {
  for (const h of opened) await h.close();
});
const env = () => {
  const h = brokerEnv(dir, { site_mode: "api" });
  opened.push(h);
  return h;
};

describe("broker-ops run hooks (synthetic synth-5d world, seed 1)", () => {
  it("state: open duties of visible events only, each until its deadline", async () => {
    const h = env();
    const run = brokerOpsTask.open(h.ctx);
    const TITLE = "open duties (stops for fills, funding for margin calls)";
    h.setNow(T("2026-03-01T01:19:59Z"));
    expect(run.state()).toEqual([{ title: TITLE, lines: [] }]);
    h.setNow(T("2026-03-01T01:20:00Z"));
    const lines = run.state()[0]!.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^stop:be-[0-9a-f]+: fill (buy|sell) [\d.]+ [A-Z]+ @ [\d.]+ at 2026-03-01T01:20:00\.000Z; protective stop due before 2026-03-01T03:20:00\.000Z; stops on record since: none$/,
    );
    // at each hour: exactly the roster's duties whose event has happened and whose deadline has not passed
    const roster = dutyRoster(h.world, h.ctx.params, START, END);
    for (let now = START; now < END; now += 3_600_000) {
      h.setNow(now);
      expect(
        run.state()[0]!.lines.map((l) => l.slice(0, l.indexOf(":", l.indexOf(":") + 1))),
        new Date(now).toISOString(),
      ).toEqual(roster.filter((d) => d.t <= now && now < d.deadline).map((d) => d.key));
    }
    await run.dispose();
  });

  it("state: the desk's own instructions on record for each open duty", () => {
    const h = env();
    const roster = dutyRoster(h.world, h.ctx.params, START, END);
    const stop = roster.find((d) => d.kind === "stop")!;
    const call = roster.find((d) => d.kind === "funding")!;
    if (stop.kind !== "stop" || call.kind !== "funding") throw new Error("unreachable");
    const records = new DeskRecords();
    const side = stop.fill.p.side === "buy" ? "sell" : "buy";
    records.addStop({ symbol: stop.fill.p.symbol, side, qty: stop.fill.p.qty, trigger_price: 1 }, stop.t - 1, null);
    records.addStop({ symbol: stop.fill.p.symbol, side, qty: stop.fill.p.qty, trigger_price: 1 }, stop.t + 60_000, 2);
    records.addFunding({ call_id: call.call.p.call_id, amount: call.call.p.required_amount }, call.t + 60_000);
    const at = (now: number) => openDutyState([stop, call], records, now)[0]!.lines;
    expect(at(stop.t + 60_000)[0]).toMatch(/stops on record since: SO-0002$/);
    expect(at(call.t + 60_000).at(-1)).toBe(
      `funding:${call.call.p.call_id}: margin call ${call.call.p.call_id} for ${call.call.p.required_amount} USD at ` +
        `${new Date(call.t).toISOString()}; funding due before ${new Date(call.deadline).toISOString()}; funding on record: FI-0001`,
    );
    expect(at(call.deadline)).toEqual([]);
  });

  it("observations: book rows visible in (since, now] by their mail subject, and the site's own mails", async () => {
    const h = env();
    const run = brokerOpsTask.open(h.ctx);
    h.setNow(T("2026-03-01T01:20:00Z"));
    const obs = run.observations(START, T("2026-03-01T01:20:00Z"));
    const fill = obs.find((o) => o.id === bookIds().be(5))!;
    expect(fill).toMatchObject({ t: T("2026-03-01T01:20:00Z"), kind: "fill" });
    expect(fill.summary).toMatch(/^Fill: (BUY|SELL) [\d.]+ [A-Z]+ @ [\d.]+ \(/);
    expect(obs.every((o) => o.t > START && o.t <= T("2026-03-01T01:20:00Z"))).toBe(true);
    // past the clock: nothing more than what is visible now
    expect(run.observations(START, END)).toEqual(obs);
    // (since, now]: the fill at exactly `since` is left out
    expect(run.observations(T("2026-03-01T01:20:00Z"), T("2026-03-01T01:20:00Z"))).toEqual([]);
    // a sign-in sends a code by mail: it appears as a "mail" observation with its subject only
    h.setNow(T("2026-03-01T02:00:00Z"));
    const signIn = run.tools().find((t) => t.name === "broker_sign_in")!;
    const r = await signIn.invoke(
      { username: h.ctx.params.username, password: h.ctx.params.password },
      { now: () => T("2026-03-01T02:00:00Z"), actor: "agent" },
    );
    expect(r.ok).toBe(true);
    const mails = run
      .observations(T("2026-03-01T01:59:00Z"), T("2026-03-01T02:00:00Z"))
      .filter((o) => o.kind === "mail");
    expect(mails).toEqual([
      { t: T("2026-03-01T02:00:00Z"), kind: "mail", id: "otp-0001", summary: "Your sign-in code" },
    ]);
    await run.dispose();
  });
});
