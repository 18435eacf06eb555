/**
 * broker-ops in real Chromium (one browser launch): the 25-minute poller signs in through the site's
 * form with the code from the mailbox, sends a funding instruction and places protective stops
 * through the browser forms; the scorer reads them from the browser actions' ledgered effects; the
 * password and the codes appear nowhere in the ledger. Skipped with a message when Chromium is absent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { DEFAULT_PASSWORD } from "../../../src/tasks/broker-ops/params.js";
import { effectsOfCommitment } from "../../../src/tools/browser/browser-tools.js";
import { chromiumMissing } from "../../../src/tools/browser/launch.js";
import { freshRunsDir, options, run } from "../../run/helpers.js";
import { BROKER_CACHE, bookIds, brokerWorldDir } from "./world.js";

const { be, mc } = bookIds();

const missing = chromiumMissing();
/**
 * 03-04 00:00–12:00: margin call mc(1) (00:00), fills be(58) at 04:20 and be(60) at 04:40 (both sells: buy stops).
 * Generator v6 had mc(1) at 00:25 and the first fill as be(56).
 */
const WINDOW = { sim_start: "2026-03-04T00:00:00Z", sim_end: "2026-03-04T12:00:00Z" };

describe("broker-ops through the browser (Chromium)", () => {
  it.skipIf(missing !== null)(
    "the poller signs in with the mailed code and files its instructions through the forms: 1.0",
    async () => {
      const cfg = {
        task: "broker-ops",
        ...WINDOW,
        world: { dir: brokerWorldDir() },
        agent: { model: "scripted:poller-25m" },
      };
      const r = await run(cfg, { ...options(freshRunsDir()), cacheDir: BROKER_CACHE });
      expect(r.results.performance).toMatchObject({
        primary: { name: "routine_score", value: 1 },
        duties: 3,
        stop_duties: 2,
        funding_duties: 1,
      });
      expect(r.results.outcomes.map((o) => [o.key, o.status])).toEqual([
        [`funding:${mc(1)}`, "met"],
        [`stop:${be(58)}`, "met"],
        [`stop:${be(60)}`, "met"],
      ]);
      expect(r.results.outcomes[1]!.detail).toMatchObject({ fill_side: "sell", stop: { side: "buy", qty: 0.25 } });

      const text = readFileSync(join(r.runDir, "ledger.jsonl"), "utf8");
      const ev = readLedger(join(r.runDir, "ledger.jsonl"));
      const posts = ev.flatMap((e) =>
        e.type === "commitment"
          ? effectsOfCommitment(e).filter((x) => x.kind === "request" && x.method === "POST")
          : [],
      );
      expect(posts.map((x) => (x.kind === "request" ? [x.path, x.status] : []))).toEqual([
        ["/login", 200],
        ["/login/code", 200],
        ["/risk/funding", 201],
        ["/login", 200],
        ["/login/code", 200],
        ["/orders/stops", 201],
        // 04:50: the session of 04:25 is still live (25 idle minutes): no new sign-in
        ["/orders/stops", 201],
      ]);
      expect(posts[0]).toMatchObject({ body: "username=ops-desk&password=%5Bredacted%5D" });
      expect(posts[1]).toMatchObject({ body: "code=%5Bredacted%5D" });
      // the password and the codes the agent typed are the run's secrets: placeholders in the ledger
      expect(text).not.toContain(DEFAULT_PASSWORD);
      const typed = ev.flatMap((e) =>
        e.type === "tool_call" && e.tool === "browser_fill" ? [(e.args as { text: string }).text] : [],
      );
      expect(typed.slice(0, 3)).toEqual(["ops-desk", "[redacted:broker_password]", "[redacted:broker_code]"]);
      expect(typed.filter((t) => t.startsWith("[redacted:"))).toHaveLength(4);
      for (const t of typed) expect(t).not.toMatch(/^\d{6}$/);
      expect(ev.filter((e) => e.type === "note" || (e.type === "tool_call" && e.status !== "ok"))).toEqual([]);

      // the same policy through the site's API tools scores the same
      const api = await run(
        { ...cfg, task_params: { site_mode: "api" } },
        { ...options(freshRunsDir()), cacheDir: BROKER_CACHE },
      );
      expect(api.results.performance).toEqual(r.results.performance);
      expect(api.results.outcomes).toEqual(r.results.outcomes);
    },
  );
  if (missing !== null) it(`skips: ${missing}`, () => expect(missing).not.toBeNull());
});
