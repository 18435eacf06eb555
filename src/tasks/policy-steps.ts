import type { PolicyApi } from "./task.js";

/** One tool call of a scripted policy. */
export interface PolicyStep {
  tool: string;
  args: unknown;
}

export type StepResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * A reference policy's wake written as a generator of tool calls: it yields each call and receives
 * the tool's result. The same script drives the scripted agent (`runSteps` over a `PolicyApi`) and
 * the LLM-agent tests (a test server answering with the yielded calls), so both make identical calls.
 */
export type StepScript = Generator<PolicyStep, void, StepResult>;

/** Runs a step script against the tools, one call at a time, feeding each result back. */
export async function runSteps(api: PolicyApi, script: StepScript): Promise<void> {
  let r = script.next();
  while (!r.done) {
    const res = await api.call(r.value.tool, r.value.args);
    r = script.next(res);
  }
}
