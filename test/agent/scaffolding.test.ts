import { describe, expect, it } from "vitest";
import type { ReactAgentOptions } from "../../src/agent/react-agent.js";
import { guidanceLine, NO_SCAFFOLDING, type Scaffolding } from "../../src/agent/scaffolding.js";
import { procedureText } from "../../src/agent/system-prompt.js";
import { countTokens, messageTokens, toolSpecTokens } from "../../src/agent/token-counter.js";
import type { ChatMessage, GenerateRequest } from "../../src/models/model.js";
import { HOUR, markerTime, reply, runAgent, T0 } from "./support/harness.js";

const iso = (t: number) => new Date(t).toISOString();

/** A fixed policy: at each wake echo, read 20 words, then sleep 10 h (the replies never depend on the text). */
const policy = (req: GenerateRequest) => {
  const last = req.messages.at(-1);
  if (last?.role === "user") return reply(["echo", { x: req.messages.length }], ["words", { n: 20 }]);
  return reply(["sleep", { until: iso(markerTime(req) + 10 * HOUR) }]);
};

const DEADLINES = [T0 + 20 * HOUR, T0 + 33 * HOUR, T0 + 33 * HOUR, T0 + 45 * HOUR + 30 * 60_000, T0 + 50 * HOUR];

async function runWith(scaffolding: Scaffolding) {
  const extra: Partial<ReactAgentOptions> = {
    scaffolding,
    state: () => [
      { title: "open duties", lines: ["d1 due soon", "d2 due later"] },
      { title: "rights used", lines: ["digest of day 1"], open: 0 },
    ],
    guidance: {
      goal: "Test task (score: acc, higher is better)",
      sim_start: T0,
      sim_end: T0 + 3 * 24 * HOUR,
      deadlines: (until) => DEADLINES.filter((d) => d < until),
    },
  };
  const { requests } = await runAgent({ days: 3, model: policy, extra });
  return requests.map((r) => r.req);
}

/** The full transcript of the last request (every message the model saw, in order). */
const transcriptOf = (reqs: GenerateRequest[]) => reqs.at(-1)!.messages;
const textOf = (m: ChatMessage | undefined) => m?.content ?? "";
const markers = (m: ChatMessage[]) => m.filter((x) => x.role === "user" && textOf(x).startsWith("(woke at"));

describe("scaffolding switches: each changes exactly what it names", () => {
  it("all off (the default) is the baseline: no switch text anywhere", async () => {
    const base = await runWith(NO_SCAFFOLDING);
    const all = JSON.stringify(base);
    expect(all).not.toContain("(context:");
    expect(all).not.toContain("(guidance:");
    expect(all).not.toContain("Daily procedure");
  });

  it("context_feedback: only each tool result gains a line with the tokens used and left", async () => {
    const base = await runWith(NO_SCAFFOLDING);
    const on = await runWith({ ...NO_SCAFFOLDING, context_feedback: true });
    expect(on.map((r) => r.system)).toEqual(base.map((r) => r.system));
    const b = transcriptOf(base);
    const o = transcriptOf(on);
    expect(o).toHaveLength(b.length);
    const tools = base[0]!.tools;
    const fixed = toolSpecTokens(tools) + countTokens(base[0]!.system);
    let tool = 0;
    for (let i = 0; i < b.length; i++) {
      if (b[i]!.role !== "tool") {
        expect(o[i]).toEqual(b[i]);
        continue;
      }
      tool++;
      const [head, line, ...rest] = textOf(o[i]).split("\n");
      expect(rest).toEqual([]);
      expect(head).toBe(b[i]!.content);
      const m = /^\(context: (\d+) tokens used of 60000, (\d+) left\)$/.exec(line ?? "");
      expect(m).not.toBeNull();
      const used = Number(m![1]);
      expect(used + Number(m![2])).toBe(60_000);
      expect(used).toBeGreaterThan(fixed);
    }
    expect(tool).toBeGreaterThan(4);
    // the first tool result of the run, worked by hand: fixed prompt + the transcript so far + its own text
    const first = on[1]!;
    const firstTool = first.messages.findIndex((x) => x.role === "tool");
    const before = first.messages.slice(0, firstTool).reduce((n, x) => n + messageTokens(x), 0);
    const own = countTokens(textOf(b[firstTool]));
    expect(first.messages[firstTool]!.content).toBe(
      `${textOf(b[firstTool])}\n(context: ${fixed + before + own} tokens used of 60000, ${60_000 - fixed - before - own} left)`,
    );
  });

  it("guidance v1 / v2 / v3: only each wake marker gains one line (goal and day; + open items; + due tomorrow)", async () => {
    const base = await runWith(NO_SCAFFOLDING);
    const b = transcriptOf(base);
    const lines: Record<string, string[]> = {};
    for (const level of ["v1", "v2", "v3"] as const) {
      const on = await runWith({ ...NO_SCAFFOLDING, guidance: level });
      expect(on.map((r) => r.system)).toEqual(base.map((r) => r.system));
      const o = transcriptOf(on);
      expect(o).toHaveLength(b.length);
      lines[level] = [];
      for (let i = 0; i < b.length; i++) {
        const isMarker = b[i]!.role === "user" && textOf(b[i]).startsWith("(woke at");
        if (!isMarker) {
          expect(o[i]).toEqual(b[i]);
          continue;
        }
        expect(textOf(o[i]).startsWith(`${textOf(b[i])}\n(guidance: `)).toBe(true);
        lines[level].push(textOf(o[i]).slice(textOf(b[i]).length + 1));
      }
    }
    // hand-worked: wakes at 00:00, 10:00, 20:00 of day 1, 06:00 and 16:00 of day 2, 02:00 ... of day 3
    expect(markers(b).map((m) => markerTime({ messages: [m] } as GenerateRequest))).toEqual([
      T0,
      T0 + 10 * HOUR,
      T0 + 20 * HOUR,
      T0 + 30 * HOUR,
      T0 + 40 * HOUR,
      T0 + 50 * HOUR,
      T0 + 60 * HOUR,
      T0 + 70 * HOUR,
    ]);
    const goal = "(guidance: your goal is Test task (score: acc, higher is better);";
    expect(lines.v1![0]).toBe(`${goal} today is 2026-03-01, day 1 of 3.)`);
    expect(lines.v1![3]).toBe(`${goal} today is 2026-03-02, day 2 of 3.)`);
    // v2: the open items are the two duties (the used right is not open)
    expect(lines.v2![0]).toBe(
      `${goal} today is 2026-03-01, day 1 of 3. 2 items still open: revisit stale commitments.)`,
    );
    // v3: from day 1, tomorrow (03-02) holds 09:00 (twice: listed once) and 21:30; from day 2, tomorrow holds 02:00
    expect(lines.v3![0]).toBe(
      `${goal} today is 2026-03-01, day 1 of 3. 2 items still open: revisit stale commitments. ` +
        "Due tomorrow (2026-03-02): 3 deadlines, at 09:00, 21:30 UTC.)",
    );
    expect(lines.v3![4]).toBe(
      `${goal} today is 2026-03-02, day 2 of 3. 2 items still open: revisit stale commitments. ` +
        "Due tomorrow (2026-03-03): 1 deadline, at 02:00 UTC.)",
    );
    expect(lines.v3![7]).toBe(
      `${goal} today is 2026-03-03, day 3 of 3. 2 items still open: revisit stale commitments. ` +
        "Nothing is due tomorrow (2026-03-04).)",
    );
  }, 900_000);

  it("procedure: only the system prompt gains the daily checklist (after how you run); every message is unchanged", async () => {
    const base = await runWith(NO_SCAFFOLDING);
    const on = await runWith({ ...NO_SCAFFOLDING, procedure: true });
    expect(transcriptOf(on)).toEqual(transcriptOf(base));
    for (let i = 0; i < on.length; i++) {
      expect(on[i]!.system).toBe(
        `${base[i]!.system.trimEnd()}\n\n${procedureText({ trigger: "sleep", memory: false })}\n`,
      );
    }
    expect(on[0]!.system).toContain("6. Wait: call `sleep(until)` with the time your next item is due.");
  });

  it("guidance none renders nothing; the day count covers a partial last day", () => {
    const g = { goal: "g", at: T0, sim_start: T0, sim_end: T0 + 36 * HOUR, openItems: 0, deadlines: () => [] };
    expect(guidanceLine("none", g)).toBeNull();
    expect(guidanceLine("v2", { ...g, at: T0 + 30 * HOUR, openItems: 1 })).toBe(
      "(guidance: your goal is g; today is 2026-03-02, day 2 of 2. 1 item still open: revisit stale commitments.)",
    );
  });
});
