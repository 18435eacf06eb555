import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanLedger } from "../../src/report/ledger-scan.js";

const H = 3_600_000;
const line = (o: object) => JSON.stringify(o);
const wake = (seq: number, t: number, reason = "sleep") => line({ seq, type: "wake", t, actor: "agent", reason });

describe("streaming ledger scan", () => {
  const dir = mkdtempSync(join(tmpdir(), "relive-report-ledger-"));

  it("thins wakes evenly, finds the first exhaustion and ignores a torn last line", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => wake(i, i * H, i === 0 ? "start" : "sleep"));
    lines.push(
      line({
        seq: 10,
        type: "tool_call",
        t: 10 * H,
        actor: "agent",
        tool: "x",
        args: {},
        status: "unpaid",
        cost_usd: 0,
        domain: "http",
      }),
      line({ seq: 11, type: "llm_rejected", t: 11 * H, actor: "agent", reason: "llm budget" }),
    );
    const path = join(dir, "a.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n{"seq":12,"type":"wa`);
    const s = (await scanLedger(path, { maxWakes: 4 }))!;
    expect(s.totalWakes).toBe(10);
    expect(s.stride).toBe(4);
    expect(s.wakes.map((w) => w.t / H)).toEqual([0, 4, 8]);
    expect(s.wakes[0]!.reason).toBe("start");
    expect(s.exhaustedAt).toBe(10 * H);
  });

  it("takes an empty daily brief as exhaustion just before its midnight", async () => {
    const path = join(dir, "b.jsonl");
    const brief = {
      seq: 1,
      type: "daily_brief",
      t: 24 * H,
      day: 1,
      days: 3,
      spent_usd: 1,
      left_usd: 0,
      llm_spent_usd: 0,
      llm_left_usd: 20,
      by_type: {},
      text: "",
    };
    writeFileSync(path, `${[wake(0, 0, "start"), line(brief)].join("\n")}\n`);
    expect((await scanLedger(path, { maxWakes: 10 }))!.exhaustedAt).toBe(24 * H - 1);
  });

  it("names the file and line of an invalid event, and returns null without a ledger", async () => {
    const path = join(dir, "c.jsonl");
    writeFileSync(path, `${wake(0, 0)}\n{"seq":1,"type":"wake","t":"x"}\n${wake(2, H)}\n`);
    await expect(scanLedger(path, { maxWakes: 10 })).rejects.toThrow(/c\.jsonl:2: not a valid wake event: t/);
    expect(await scanLedger(join(dir, "missing.jsonl"), { maxWakes: 10 })).toBeNull();
  });
});
