import { statelessPolicy } from "../../../src/tasks/reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../../../src/tasks/task.js";
import type { ToolResult } from "../../../src/tools/tool.js";

export interface ScheduledCall {
  at: number;
  tool: string;
  args: unknown;
}

/** A test policy that makes the given calls at the given instants and records every result. */
export function schedulePolicy(calls: readonly ScheduledCall[]): ReferencePolicy & {
  results: { at: number; tool: string; args: unknown; result: ToolResult }[];
} {
  const sorted = [...calls].sort((a, b) => a.at - b.at);
  const results: { at: number; tool: string; args: unknown; result: ToolResult }[] = [];
  const policy = statelessPolicy({
    name: "schedule",
    description: "test schedule",
    async act(api: PolicyApi) {
      const now = api.now();
      for (const c of sorted)
        if (c.at === now) results.push({ at: now, tool: c.tool, args: c.args, result: await api.call(c.tool, c.args) });
    },
    nextWake: (now) => sorted.find((c) => c.at > now)?.at ?? null,
  });
  return { ...policy, results };
}
