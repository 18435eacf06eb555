import { describe, expect, it } from "vitest";
import type { SpanRecord } from "../../src/learning/optimizer.js";
import { aggregate } from "../../src/report/aggregate.js";
import { experimentCharts } from "../../src/report/charts.js";
import { renderHtml } from "../../src/report/html.js";
import type { Results } from "../../src/run/results.js";
import { fakeRun } from "./fake-runs.js";

const span = (
  n: number,
  score: number | null,
  harness: SpanRecord["harness"],
  decision: SpanRecord["decision"] = null,
) => ({
  span: n,
  from: "2026-03-01T00:00:00.000Z",
  to: "2026-03-02T00:00:00.000Z",
  score,
  harness,
  decision,
  reason: "",
  changes: [],
  reference: score,
});

const opt = (control: boolean, spans: ReturnType<typeof span>[]): NonNullable<Results["optimizer"]> => ({
  span_days: 1,
  control,
  promotion: "not-worse",
  proposer: control ? null : "openai:gpt-4.1",
  spans,
  kept: spans.filter((s) => s.decision === "kept").length,
  reverted: spans.filter((s) => s.decision === "reverted").length,
  proposer_calls: control ? 0 : 2,
  proposer_usd: control ? 0 : 0.01,
  proposals_rejected: 0,
});

describe("per-span optimizer curves in the report", () => {
  it("averages each span's settled score per cell, counts kept candidates, and draws the curves beside the control arm", async () => {
    const learning = (control: boolean) => ({
      config: {
        feedback: "oracle",
        agent: {
          model: "scripted:a",
          trigger: "sleep",
          deadline_guard: false,
          learning: { method: "optimizer", span_days: 1, control },
        },
      },
    });
    const runs = [
      ...[0, 1].map((seed) =>
        fakeRun({
          seed,
          ...learning(false),
          optimizer: opt(false, [
            span(1, 0.2, "incumbent"),
            span(2, 0.4 + 0.2 * seed, "candidate", seed ? "kept" : "reverted"),
            span(3, 0.5, "incumbent"),
          ]),
        }),
      ),
      ...[0, 1].map((seed) =>
        fakeRun({
          seed,
          ...learning(true),
          optimizer: opt(true, [span(1, 0.2, "control"), span(2, 0.3, "control"), span(3, null, "control")]),
        }),
      ),
    ];
    const { data } = await aggregate({ runs, skipped: [] });
    const e = data.experiments[0]!;
    const byControl = (c: boolean) => e.cells.find((x) => JSON.stringify(x.axes).includes(String(c)))!;
    expect(byControl(false).optimizer_spans).toEqual([
      { span: 1, mean: 0.2, n: 2, candidates: 0, kept: 0 },
      { span: 2, mean: expect.closeTo(0.5, 12), n: 2, candidates: 2, kept: 1 },
      { span: 3, mean: 0.5, n: 2, candidates: 0, kept: 0 },
    ]);
    expect(byControl(true).optimizer_spans!.at(-1)).toEqual({ span: 3, mean: null, n: 0, candidates: 0, kept: 0 });
    const charts = experimentCharts(e, 0, [], []);
    expect(charts.charts.map((c) => c.id)).toContain("e0-optimizer");
    const html = renderHtml(data, [{ charts: [], missing: [] }]);
    expect(html).toContain("Harness optimizer: settled score ×100 per span");
    expect(html).toContain('50.0 <span class="muted">(1/2 kept)</span>');
  });

  it("has no optimizer section when no run optimized", async () => {
    const { data } = await aggregate({ runs: [0, 1].map((seed) => fakeRun({ seed })), skipped: [] });
    expect(data.experiments[0]!.cells.every((c) => c.optimizer_spans === undefined)).toBe(true);
    expect(renderHtml(data, [{ charts: [], missing: [] }])).not.toContain("Harness optimizer");
  });
});
