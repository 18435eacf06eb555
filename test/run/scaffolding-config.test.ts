import { describe, expect, it } from "vitest";
import { configPaths, varyingAxes } from "../../src/report/config-axes.js";
import { ConfigError, parseRunConfig } from "../../src/run/config.js";
import { expandGrid } from "../../src/run/grid/expand-grid.js";
import { parseGridConfig } from "../../src/run/grid/grid-config.js";
import { runWithServer } from "../agent/support/llm-run.js";
import { fakeRun } from "../report/fake-runs.js";
import type { ScriptedReply } from "../support/openai-test-server.js";

const BASE = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-02T00:00:00Z" };

describe("agent.scaffolding: config field and grid axis", () => {
  it("is absent by default and fills its own defaults when given; bad values name the field", () => {
    expect(parseRunConfig(BASE).agent.scaffolding).toBeUndefined();
    expect(parseRunConfig({ ...BASE, agent: { scaffolding: { guidance: "v2" } } }).agent.scaffolding).toEqual({
      context_feedback: false,
      guidance: "v2",
      procedure: false,
    });
    expect(() => parseRunConfig({ ...BASE, agent: { scaffolding: { guidance: "v4" } } })).toThrow(ConfigError);
    expect(() => parseRunConfig({ ...BASE, agent: { scaffolding: { guidance: "v4" } } })).toThrow(
      /agent\.scaffolding\.guidance/,
    );
    expect(() => parseRunConfig({ ...BASE, agent: { scaffolding: { context_feedbak: true } } })).toThrow(
      /agent\.scaffolding/,
    );
  });

  it("nested switches are grid axes (expanded by dotted path) and report axes (flattened by dotted path)", () => {
    const cells = expandGrid(
      parseGridConfig(
        {
          base: BASE,
          axes: { "agent.scaffolding.guidance": ["none", "v3"], "agent.scaffolding.context_feedback": [false, true] },
        },
        "test",
      ),
      "test",
    );
    expect(cells.map((c) => c.config.agent.scaffolding)).toEqual([
      { context_feedback: false, guidance: "none", procedure: false },
      { context_feedback: true, guidance: "none", procedure: false },
      { context_feedback: false, guidance: "v3", procedure: false },
      { context_feedback: true, guidance: "v3", procedure: false },
    ]);
    const runs = [
      fakeRun({ config: { agent: { trigger: "sleep", scaffolding: { guidance: "none", procedure: false } } } }),
      fakeRun({ config: { agent: { trigger: "sleep", scaffolding: { guidance: "v2", procedure: false } } } }),
    ];
    const paths = runs.map(configPaths);
    expect(paths[1]!["agent.scaffolding.guidance"]).toBe('"v2"');
    expect(varyingAxes(paths).map((a) => a.path)).toEqual(["agent.scaffolding.guidance"]);
  });

  it("a run passes the switches to the agent: the first request carries the procedure, guidance and context lines", async () => {
    const respond = (body: { messages: { role: string }[] }): ScriptedReply =>
      body.messages.at(-1)?.role === "tool"
        ? { kind: "tool_calls", calls: [{ name: "finish", arguments: { summary: "done" } }] }
        : { kind: "tool_calls", calls: [{ name: "digest_status", arguments: {} }] };
    const on = await runWithServer(
      { ...BASE, agent: { scaffolding: { context_feedback: true, guidance: "v3", procedure: true } } },
      respond,
    );
    const off = await runWithServer(BASE, respond);
    const req = (r: typeof on, i: number) => r.requests[i]!.body as { messages: { role: string; content: string }[] };
    const sysOn = req(on, 0).messages[0]!.content;
    const sysOff = req(off, 0).messages[0]!.content;
    expect(sysOff).not.toContain("## Daily procedure");
    expect(sysOn).toBe(`${sysOff.trimEnd()}\n\n## Daily procedure\n${sysOn.split("## Daily procedure\n")[1]}`);
    const markerOn = req(on, 0).messages[1]!.content;
    const markerOff = req(off, 0).messages[1]!.content;
    // the day's digest window is 12:00-13:00
    expect(markerOff).toBe(
      "(woke at 2026-03-01T00:00:00.000Z for start)\n" +
        "day 1 of 1: spent $0.0000 of $20.0000 ($20.0000 left); LLM $0.0000 of $20.0000 ($20.0000 left)\n" +
        "[state as of 2026-03-01T00:00:00.000Z]\n" +
        "daily digest:\n" +
        "- today's digest (window [2026-03-01T12:00:00.000Z, 2026-03-01T13:00:00.000Z)): not delivered yet\n" +
        "- next window opens 2026-03-01T12:00:00.000Z",
    );
    // tomorrow's window closes after the run ends: not due
    expect(markerOn).toBe(
      `${markerOff}\n(guidance: your goal is Daily digest (score: digest_acc, higher is better); today is 2026-03-01, ` +
        "day 1 of 1. 1 item still open: revisit stale commitments. Nothing is due tomorrow (2026-03-02).)",
    );
    const toolOn = req(on, 1).messages.at(-1)!.content;
    const toolOff = req(off, 1).messages.at(-1)!.content;
    expect(toolOn).toMatch(
      new RegExp(`^${escapeRegExp(toolOff)}\\n\\(context: \\d+ tokens used of 60000, \\d+ left\\)$`),
    );
    // the switches change what the model sees, never the score of the same actions
    expect(on.results.performance).toEqual(off.results.performance);
  }, 900_000);
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
