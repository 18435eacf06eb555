import type { TriggerKind } from "../triggers/trigger.js";
export interface SystemPromptInput {
  /** the task's rendered instruction */
  instruction: string;
  /** the trigger's "how you run" section */
  howYouRun: string;
  /** what the model's own calls cost and the LLM cap (`modelCostText`), part of how you run; absent: not stated */
  modelCost?: string;
  /** the daily checklist (`agent.scaffolding.procedure`, `procedureText`); absent: none */
  procedure?: string;
  /** the learned block (memory); empty until the learning issue */
  learned: string;
  /**
   * the harness's editable instructions (`agent.instruction_addendum`, a restart switch or a harness-optimizer
   * edit; src/run/harness-surface.ts), shown right after the task's instruction; absent or empty: no section
   */
  addendum?: string;
}

/**
 * The system prompt: instruction + how you run (the trigger's text, then the model's own prices and
 * the LLM cap) + the daily procedure when that scaffolding switch is on + the learned block. Tool
 * documentation is sent once, in the request's tools array (descriptions carry the prices), never
 * repeated here. It holds nothing that changes during a run except the learned block and the addendum
 * (which changes only at a day boundary), so the prompt prefix stays cacheable.
 */
export function renderSystemPrompt(o: SystemPromptInput): string {
  const howYouRun = [o.howYouRun.trimEnd(), ...(o.modelCost ? [o.modelCost.trimEnd()] : [])].join("\n");
  const parts = [o.instruction.trimEnd()];
  if (o.addendum !== undefined && o.addendum.trim().length > 0)
    parts.push(`## Additional instructions\n${o.addendum.trimEnd()}`);
  parts.push(howYouRun);
  if (o.procedure) parts.push(o.procedure.trimEnd());
  if (o.learned.trim().length > 0) parts.push(`## What you have learned\n${o.learned.trimEnd()}`);
  return `${parts.join("\n\n")}\n`;
}

export interface ModelCostInput {
  /** `provider:model` as priced */
  model: string;
  /** $ per million tokens */
  price: { input: number; cached_input: number; output: number };
  /** the run's LLM cap in USD (`domain_budgets.llm`); null: no cap beside the total budget */
  llmCapUsd: number | null;
  budgetUsd: number;
}

const usd = (x: number) => `$${Number(x.toFixed(6))}`;

/** The lines of "how you run" that state the model's own token prices and the LLM cap. */
export function modelCostText(o: ModelCostInput): string {
  const p = o.price;
  const cap =
    o.llmCapUsd === null
      ? `Model calls count against your total budget of ${usd(o.budgetUsd)}.`
      : `Model calls count against an LLM cap of ${usd(o.llmCapUsd)}, inside your total budget of ${usd(o.budgetUsd)}.`;
  return [
    `Your model calls are priced as ${o.model}: ${usd(p.input)} per million input tokens, ${usd(p.cached_input)} per ` +
      `million cached input tokens (a repeated prompt prefix) and ${usd(p.output)} per million output tokens.`,
    `${cap} Once it is spent, your model calls are refused for the rest of the run: you are not woken again, and ` +
      "what is still open stays undone. The first wake of each simulated day reports what you have spent so far.",
  ].join("\n");
}

/** The daily checklist of `agent.scaffolding.procedure` (spec/harness.md "Scaffolding options"). */
export function procedureText(o: { trigger: TriggerKind; memory: boolean }): string {
  return [
    "## Daily procedure",
    "Follow this checklist every simulated day:",
    "1. Review your state: the state block at the top of each wake lists what is pending, open and already used.",
    "2. Prioritize: the items with the nearest deadline first, then those whose answer you are least sure of.",
    "3. Search: gather the evidence you need for those items with the data tools.",
    "4. Commit: make, update or confirm your commitments while they still count.",
    o.memory
      ? "5. Write memory: note what you learned and what to revisit with the memory tools."
      : "5. Write memory: you have no memory tools, so say in one line of your reply what to revisit next.",
    `6. Wait: ${WAIT_STEP[o.trigger]}`,
  ].join("\n");
}

const WAIT_STEP: Record<TriggerKind, string> = {
  sleep: "call `sleep(until)` with the time your next item is due.",
  watcher: "start a watcher program (`run_program`) that waits until your next item is due or hands over earlier.",
  cron: "make sure a schedule entry fires when your next item is due (create_schedule), then end the episode with `done`.",
  policy: "end the wake with `done`: the run's trigger policy decides when you wake next.",
};
