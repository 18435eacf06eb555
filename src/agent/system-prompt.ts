import type { ToolDoc } from "../tools/tool-runtime.js";

export interface SystemPromptInput {
  /** the task's rendered instruction */
  instruction: string;
  /** the trigger's "how you run" section */
  howYouRun: string;
  tools: readonly ToolDoc[];
  /** the learned block (memory); empty until the learning issue */
  learned: string;
}

/**
 * The system prompt: instruction + how you run + tool docs (their descriptions carry the prices) +
 * the learned block. It holds nothing that changes during a run except the learned block, so the
 * prompt prefix stays cacheable.
 */
export function renderSystemPrompt(o: SystemPromptInput): string {
  const tools = o.tools.map((t) => `- ${t.name} (${t.kind}): ${t.description}`).join("\n");
  const parts = [o.instruction.trimEnd(), o.howYouRun.trimEnd(), `## Tools\n${tools}`];
  if (o.learned.trim().length > 0) parts.push(`## What you have learned\n${o.learned.trimEnd()}`);
  return `${parts.join("\n\n")}\n`;
}
