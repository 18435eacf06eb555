/**
 * The "model" behind the conformance servers: it plays a task's reference policy (the generator
 * scripts of test/agent/support/policy-responder.ts) over a provider-neutral view of the
 * conversation, and answers as a real model often does: parallel calls, and the wait call *first*
 * in a reply that also commits ([sleep, digest], [done, report, abstain]), so an agent that drops
 * calls after a wait scores 0. Commit results are never read by these policies, so the brain feeds
 * them a neutral result to look ahead. A reply whose results never came back (truncated, refused,
 * retried) is issued again with fresh ids.
 */
import { isoInstant } from "../../../src/common/time.js";
import {
  type PolicyScript,
  parseToolContent,
  type Step,
  type ToolOutcome,
} from "../../agent/support/policy-responder.js";

export type Trigger = "sleep" | "watcher" | "cron";

/** The conversation as every server style sees it after decoding its own wire format. */
export interface Conversation {
  messages: { role: "user" | "assistant" | "tool"; content: string; tool_call_id?: string }[];
}

export interface BrainCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export type Brain = (conv: Conversation, index: number) => BrainCall[];

const MARKER = /^\(woke at (\S+) for /;
const COMMITS = new Set(["digest", "report", "abstain"]);
export const WATCHER_PROGRAM = { path: "wait.js", source: "await envkit.wait(envkit.deadline());\n" };

export function policyBrain(script: PolicyScript, trigger: Trigger): Brain {
  let marker: string | null = null;
  let now = 0;
  let first = true;
  let setup: Step[] = [];
  let gen: Generator<Step, void, ToolOutcome> | null = null;
  let started = false;
  /** the last reply: its steps, and which of them (if any) awaits its result */
  let last: { steps: Step[]; ids: string[]; awaiting: number } | null = null;

  const waitStep = (): Step => {
    const next = script.nextWake(now);
    switch (trigger) {
      case "sleep":
        return next === null
          ? { tool: "finish", args: { summary: "nothing left" } }
          : { tool: "sleep", args: { until: isoInstant(next) } };
      case "cron":
        return { tool: "done", args: { summary: "ok" } };
      case "watcher":
        return {
          tool: "run_program",
          args:
            next === null ? { path: WATCHER_PROGRAM.path } : { path: WATCHER_PROGRAM.path, until: isoInstant(next) },
        };
    }
  };
  const pull = (result: ToolOutcome | undefined): Step | null => {
    if (setup.length > 0) return setup.shift() as Step;
    if (gen === null) return null;
    const r = started ? gen.next(result as ToolOutcome) : gen.next();
    started = true;
    if (r.done) {
      gen = null;
      return null;
    }
    return r.value;
  };
  /** the next reply: one read step, or commits (+ the read after them), or [wait, ...commits] */
  const compose = (result: ToolOutcome | undefined): { steps: Step[]; awaiting: number } => {
    const commits: Step[] = [];
    let step = pull(result);
    while (step !== null && COMMITS.has(step.tool)) {
      commits.push(step);
      step = pull({ ok: true, value: {} });
    }
    if (step === null) return { steps: [waitStep(), ...commits], awaiting: -1 };
    return { steps: [...commits, step], awaiting: commits.length };
  };

  return (conv, index) => {
    const msgs = conv.messages;
    let markerText: string | null = null;
    let m: RegExpExecArray | null = null;
    for (let i = msgs.length - 1; i >= 0; i--) {
      const msg = msgs[i]!;
      if (msg.role !== "user") continue;
      m = MARKER.exec(msg.content);
      if (m) {
        markerText = msg.content;
        break;
      }
    }
    if (markerText === null || m === null) throw new Error("brain: no wake marker in the conversation");
    let next: { steps: Step[]; awaiting: number };
    if (markerText !== marker) {
      marker = markerText;
      now = Date.parse(m[1]!);
      setup = [];
      if (first) {
        if (trigger === "cron")
          for (const [i, expr] of script.cron.entries())
            setup.push({ tool: "create_schedule", args: { id: `policy-${i + 1}`, cron_expr: expr } });
        if (trigger === "watcher")
          setup.push({ tool: "write_file", args: { path: WATCHER_PROGRAM.path, content: WATCHER_PROGRAM.source } });
        first = false;
      }
      gen = script.act(now);
      started = false;
      next = compose(undefined);
    } else {
      const awaited = last && last.awaiting >= 0 ? last.ids[last.awaiting] : undefined;
      const answer =
        awaited !== undefined ? msgs.find((x) => x.role === "tool" && x.tool_call_id === awaited) : undefined;
      const anyResult =
        last !== null && msgs.some((x) => x.role === "tool" && last?.ids.includes(x.tool_call_id ?? ""));
      if (answer) next = compose(parseToolContent(answer.content));
      else if (last && last.awaiting < 0 && anyResult) next = { steps: [waitStep()], awaiting: -1 };
      else if (last) next = { steps: last.steps, awaiting: last.awaiting };
      else throw new Error("brain: asked again with nothing issued");
    }
    const ids = next.steps.map((_, i) => `call_${index}_${i}`);
    last = { steps: next.steps, ids, awaiting: next.awaiting };
    return next.steps.map((s, i) => ({ id: ids[i]!, name: s.tool, args: s.args as Record<string, unknown> }));
  };
}
