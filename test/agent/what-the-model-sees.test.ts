import { describe, expect, it } from "vitest";
import { TASKS } from "../../src/tasks/registry.js";
import type { RequestBody } from "../support/openai-test-server.js";
import { EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";
import { runWithServer } from "./support/llm-run.js";

type Trigger = "sleep" | "watcher" | "cron";
const DAY = 86_400_000;
const finish = () => ({ kind: "tool_calls" as const, calls: [{ name: "finish", arguments: { summary: "x" } }] });

/** Every model request of a 1-day run of `taskId` (its default episode's first day), answered by `finish`. */
async function firstRequests(taskId: string, trigger: Trigger): Promise<RequestBody[]> {
  const task = TASKS.find((t) => t.id === taskId)!;
  const ep = task.episodes.find((e) => e.name === task.defaultEpisode)!;
  const extra =
    taskId === "event-response"
      ? { task_params: { task_file: EXAMPLE_TASK }, world: { dir: await importExample() } }
      : { sim_start: ep.sim_start, sim_end: ep.sim_start + DAY };
  const r = await runWithServer({ task: taskId, ...extra, agent: { trigger } }, finish);
  return r.requests.map((x) => x.body).filter((b) => Array.isArray(b?.messages));
}

/** Schema problems: `$schema`, zod's implicit integer bounds, type lists, properties without a description. */
function schemaProblems(s: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(s)) for (const [i, x] of s.entries()) schemaProblems(x, `${path}[${i}]`, out);
  if (typeof s !== "object" || s === null || Array.isArray(s)) return out;
  const o = s as Record<string, unknown>;
  if ("$schema" in o) out.push(`${path}: $schema`);
  if (o.maximum === Number.MAX_SAFE_INTEGER || o.minimum === Number.MIN_SAFE_INTEGER)
    out.push(`${path}: implicit bound`);
  if (Array.isArray(o.type)) out.push(`${path}: type list`);
  if (typeof o.properties === "object" && o.properties !== null)
    for (const [k, v] of Object.entries(o.properties as Record<string, unknown>)) {
      if (typeof (v as { description?: unknown }).description !== "string") out.push(`${path}.${k}: no description`);
      schemaProblems(v, `${path}.${k}`, out);
    }
  for (const [k, v] of Object.entries(o)) if (k !== "properties") schemaProblems(v, `${path}/${k}`, out);
  return out;
}

const systemOf = (b: RequestBody): string => b.messages[0].content;
/** The task's own text: the system prompt before the trigger's section. */
const instructionOf = (b: RequestBody): string => systemOf(b).split("\n## How you run\n")[0]!;
const toolNames = (b: RequestBody): string[] => b.tools.map((t: { function: { name: string } }) => t.function.name);

describe("what the model sees, for every task and trigger (issue 11 §4)", () => {
  const seen = new Map<string, RequestBody[]>();
  const runs: [string, Trigger][] = [
    ...TASKS.map((t) => [t.id, "sleep"] as [string, Trigger]),
    ["price-check", "watcher"],
    ["price-check", "cron"],
    ["daily-digest", "watcher"],
    ["daily-digest", "cron"],
  ];

  it("minimal schemas, every parameter described, tool docs once, the model's prices and the LLM cap stated", async () => {
    for (const [task, trigger] of runs) {
      const reqs = await firstRequests(task, trigger);
      expect(reqs.length, `${task} ${trigger}`).toBeGreaterThan(0);
      seen.set(`${task}/${trigger}`, reqs);
      for (const b of reqs) {
        const where = `${task} ${trigger}`;
        const problems = b.tools.flatMap((t: { function: { name: string; parameters: unknown } }) =>
          schemaProblems(t.function.parameters, t.function.name, []),
        );
        expect(problems, where).toEqual([]);
        for (const t of b.tools) expect(t.function.description.length, where).toBeGreaterThan(0);
        const system = systemOf(b);
        // tool docs are sent once: in the tools array, never as a list in the system prompt
        // (the harness listed them as "- name (kind): description"; task instructions name tools in prose)
        expect(system, where).not.toMatch(/^- [a-z_]+ \((meta|data|commit)\): /m);
        expect(system, where).toContain("## How you run");
        expect(system, where).toContain(
          "Your model calls are priced as openai:gpt-4.1-mini: $0.4 per million input tokens, $0.1 per million cached " +
            "input tokens (a repeated prompt prefix) and $1.6 per million output tokens.",
        );
        expect(system, where).toContain("Model calls count against an LLM cap of $20, inside your total budget of $");
      }
    }
  }, 900_000);

  it("price-check tells only sleep agents to sleep, and says how cron and watcher agents are woken", () => {
    const [sleep, watcher, cron] = (["sleep", "watcher", "cron"] as const).map((t) =>
      instructionOf(seen.get(`price-check/${t}`)![0]),
    );
    expect(sleep).toContain("call sleep(until)");
    for (const text of [watcher!, cron!]) expect(text).not.toMatch(/\bsleep\b/);
    expect(watcher).not.toContain("once a day");
    expect(watcher).toContain("cannot report or abstain");
    expect(cron).toContain("Your base schedule wakes you once a day (00:00 UTC)");
    expect(cron).toContain("create_schedule");
  });

  it("the watcher's text says programs cannot commit", () => {
    for (const task of ["price-check", "daily-digest"])
      expect(systemOf(seen.get(`${task}/watcher`)![0])).toContain("they cannot commit");
  });

  it("breakout-news: the coordinator, which has no notify, is never told to notify; market agents are", () => {
    const reqs = seen.get("breakout-news/sleep")!;
    const coordinator = reqs.filter((b) => !toolNames(b).includes("notify"));
    const market = reqs.filter((b) => toolNames(b).includes("notify"));
    expect(coordinator.length).toBeGreaterThan(0);
    expect(market.length).toBeGreaterThan(0);
    for (const b of coordinator) {
      expect(instructionOf(b)).toContain("You make no claims yourself (you have no `notify`)");
      expect(instructionOf(b)).not.toContain("and say so with `notify`");
      expect(instructionOf(b)).not.toContain("- `notify` is free.");
    }
    for (const b of market) expect(instructionOf(b)).toContain("and say so with `notify`");
  });
});
