import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Kernel } from "../../../src/kernel/kernel.js";
import { resolutionDetectTask } from "../../../src/tasks/resolution-detect/index.js";
import { ResolutionDetectParams } from "../../../src/tasks/resolution-detect/params.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolDef, ToolResult } from "../../../src/tools/tool.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildResolutionTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
const clock = { t: SIM_START };

beforeAll(() => {
  dir = buildResolutionTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

function ctx(params: unknown = {}, feedback: "none" | "oracle" = "none"): TaskRunContext<ResolutionDetectParams> {
  return {
    params: ResolutionDetectParams.parse(params),
    feedback,
    oracleFeedback: null,
    sim_start: SIM_START,
    sim_end: SIM_END,
    view: world.at(() => clock.t),
    kernel: new Kernel({ start: SIM_START, end: SIM_END }),
    budget_usd: 70,
    env_seed: 0,
    world,
  };
}

function toolsOf(c = ctx()) {
  const tools = new Map<string, ToolDef>(
    resolutionDetectTask
      .open(c)
      .tools()
      .map((t) => [t.name, t]),
  );
  return async (name: string, args: unknown): Promise<ToolResult> => {
    const tool = tools.get(name)!;
    try {
      return await tool.invoke(tool.args.parse(args), { now: () => clock.t, actor: "agent" });
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  };
}

describe("resolution-detect task definition", () => {
  it("fields, params, tools, instruction", () => {
    expect(resolutionDetectTask).toMatchObject({
      id: "resolution-detect",
      budget_usd: 70,
      baseSchedule: "0 0 * * *",
      defaultEpisode: "synth-28d",
      metrics: { primary: "tc_f1", direction: "higher" },
    });
    expect(resolutionDetectTask.episodes.map((e) => e.name)).toEqual(["synth-28d", "synth-7d"]);
    expect(resolutionDetectTask.referencePolicies.map((p) => [p.name, Boolean(p.oracle)])).toEqual([
      ["silent", false],
      ["news-cue", false],
      ["oracle", true],
      ["syncer-6h", true],
      ["syncer-24h", true],
      ["price-cross-0.99", true],
    ]);
    expect(ResolutionDetectParams.parse({})).toEqual({
      search_usd: 0.002,
      article_usd: 0.002,
      late_decay_hours: 48,
      early_decay_hours: 12,
      question_prefix: "ld-",
    });
    const tools = resolutionDetectTask.open(ctx()).tools();
    const validArgs: Record<string, unknown> = {
      list_questions: {},
      get_question: { question_id: "ld-a" },
      get_marks: {},
      mark_outcome: { question_id: "ld-a", outcome: "Yes" },
      search_news: { q: "x" },
      get_article: { news_id: "n-1" },
    };
    expect(tools.map((t) => [t.name, t.kind, t.priceOf(validArgs[t.name])])).toEqual([
      ["list_questions", "data", 0],
      ["get_question", "data", 0],
      ["get_marks", "meta", 0],
      ["mark_outcome", "commit", 0],
      ["search_news", "data", 0.002],
      ["get_article", "data", 0.002],
    ]);
    for (const t of tools) expect(() => z.toJSONSchema(t.args, { io: "input" })).not.toThrow();
    const text = resolutionDetectTask.open({ ...ctx({ search_usd: 0.003 }), budget_usd: 70 }).instruction();
    expect(text).toContain("$70.00");
    expect(text).toContain("$0.003 per page of 10 hits");
    expect(text).toContain("exp(−delay / 48 h)");
    expect(text).toContain("exp(−advance / 12 h)");
    expect(text).toContain("2026-03-01 to 2026-03-04");
    expect(text.toLowerCase()).not.toContain("feedback");
    expect(resolutionDetectTask.open(ctx({}, "oracle")).instruction()).toBe(
      resolutionDetectTask.open(ctx()).instruction(),
    );
    expect(JSON.stringify(tools.map((t) => t.description)).toLowerCase()).not.toContain("feedback");
  });
});

describe("no probe channels: nothing depends on a question's resolution, t_det or close", () => {
  it("list_questions / get_question answer the same before and after a question resolves", async () => {
    const call = toolsOf();
    const snapshot = async () => ({
      list: await call("list_questions", {}),
      a: await call("get_question", { question_id: "ld-a" }),
    });
    clock.t = T("2026-03-02T11:00:00Z");
    const before = await snapshot();
    clock.t = T("2026-03-02T23:00:00Z"); // after ld-a's t_det and resolution
    expect(await snapshot()).toEqual(before);
    const list = (before.list as { value: { questions: Record<string, unknown>[]; total: number } }).value;
    expect(list.total).toBe(7);
    expect(list.questions.map((q) => q.id)).toEqual(["ld-a", "ld-b", "ld-c", "ld-d", "ld-e", "ld-g", "ld-old"]);
    for (const q of list.questions) expect(Object.keys(q).sort()).toEqual(["added_at", "id", "outcomes", "question"]);
    expect(before.a).toEqual({
      ok: true,
      value: {
        id: "ld-a",
        question: "Will the ld-a thing happen by June 1, 2026?",
        description: "Resolves Yes if the ld-a thing happens by June 1, 2026.",
        outcomes: ["Yes", "No"],
        added_at: "2026-01-01T00:00:00.000Z",
      },
    });
    clock.t = T("2026-03-03T00:00:00Z");
    const added = (await call("list_questions", { added_after: "2026-03-01" })) as {
      value: { questions: { id: string; added_at: string }[] };
    };
    expect(added.value.questions).toEqual([
      {
        id: "ld-f",
        question: "Will the ld-f thing happen by June 1, 2026?",
        outcomes: ["Yes", "No"],
        added_at: "2026-03-03T00:00:00.000Z",
      },
    ]);
  });

  it("unknown, not-yet-added and non-question ids share one error text; marks answer alike resolved or not", async () => {
    const call = toolsOf();
    clock.t = T("2026-03-02T00:00:00Z");
    for (const id of ["nope", "ld-f", "brk-z"])
      expect(await call("get_question", { question_id: id })).toEqual({
        ok: false,
        error: `unknown question id: "${id}"`,
      });
    expect(await call("get_marks", { question_id: "ld-f" })).toEqual({
      ok: false,
      error: 'unknown question id: "ld-f"',
    });
    const old = await call("mark_outcome", { question_id: "ld-old", outcome: "No" }); // resolved days ago
    const open = await call("mark_outcome", { question_id: "ld-d", outcome: "No" }); // never resolves
    expect(old).toEqual({
      ok: true,
      value: {
        accepted: true,
        question_id: "ld-old",
        outcome: "No",
        news_id: null,
        marked_at: "2026-03-02T00:00:00.000Z",
      },
    });
    expect(Object.keys((open as { value: object }).value)).toEqual(Object.keys((old as { value: object }).value));
    expect(await call("get_marks", {})).toEqual({
      ok: true,
      value: {
        marks: [
          { question_id: "ld-old", outcome: "No", news_id: null, marked_at: "2026-03-02T00:00:00.000Z" },
          { question_id: "ld-d", outcome: "No", news_id: null, marked_at: "2026-03-02T00:00:00.000Z" },
        ],
      },
    });
    expect(await call("get_marks", { question_id: "ld-a" })).toEqual({ ok: true, value: { marks: [] } });
  });

  it("params choose the questions", async () => {
    clock.t = T("2026-03-02T00:00:00Z");
    const call = toolsOf(ctx({ questions: ["brk-z", "ld-a"] }));
    const list = (await call("list_questions", {})) as { value: { questions: { id: string }[] } };
    expect(list.value.questions.map((q) => q.id)).toEqual(["brk-z", "ld-a"]);
    expect(await call("get_question", { question_id: "ld-b" })).toEqual({
      ok: false,
      error: 'unknown question id: "ld-b"',
    });
  });
});
