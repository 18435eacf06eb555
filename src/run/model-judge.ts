import { z } from "zod";
import type { PriceTable } from "../models/price-table.js";
import type { CreatedModel } from "../models/resolve-model.js";
import { generateWithRetries, type RetryOptions } from "../models/retry.js";
import type { AnswerJudge, JudgeItem } from "../tasks/open-forecast/judge-cache.js";

const VERDICT_TOOL = "verdict";
const Verdict = z.object({ equivalent: z.boolean() }).strict();
/** model replies per pair that may lack a valid verdict before the pair fails */
const VERDICT_ATTEMPTS = 3;

const SYSTEM =
  "You check answers to forecasting questions after they resolved. Given the question, its " +
  "resolution criteria, the reference answer and a candidate answer, decide whether the candidate " +
  "names the same thing as the reference (the same entity, value or option, allowing for spelling, " +
  "abbreviations, titles and word order), not merely something related. Call the verdict tool once.";

/** The judge's one prompt for a pair (exported for tests). */
export function judgePrompt(it: JudgeItem): string {
  return [
    `Question: ${it.question.title}`,
    `Resolution criteria: ${it.question.criteria}`,
    `Reference answer: ${it.truth}`,
    `Candidate answer: ${it.answer}`,
  ].join("\n");
}

export interface ModelJudgeOptions {
  prices: PriceTable;
  retry?: Omit<RetryOptions, "onAttempt">;
  /** called after each pair with the dollars spent so far */
  onProgress?: (done: number, total: number, spentUsd: number) => void;
}

/**
 * An `AnswerJudge` backed by a model: one call per pair with native tool calling (`verdict`
 * {equivalent}), temperature 0. A reply without a valid verdict is asked again, up to
 * `VERDICT_ATTEMPTS` times, then the whole batch fails (nothing is cached). `spentUsd` adds up the
 * calls at the price table's rates; it is grading cost, never booked to a run's wallet.
 */
export function modelAnswerJudge(created: CreatedModel, o: ModelJudgeOptions): AnswerJudge & { spentUsd(): number } {
  let spent = 0;
  const tool = {
    name: VERDICT_TOOL,
    description: "Your ruling: equivalent = true when the candidate answer names the same thing as the reference.",
    parameters: {
      type: "object",
      properties: { equivalent: { type: "boolean" } },
      required: ["equivalent"],
      additionalProperties: false,
    },
  };
  let calls = 0;
  const ask = async (it: JudgeItem): Promise<boolean> => {
    let why = "";
    for (let attempt = 1; attempt <= VERDICT_ATTEMPTS; attempt++) {
      const res = await generateWithRetries(
        created.model,
        {
          system: SYSTEM,
          messages: [{ role: "user", content: judgePrompt(it) }],
          tools: [tool],
          settings: { maxOutputTokens: 256, temperature: 0 },
        },
        { actor: "judge", callIndex: calls++ },
        { ...o.retry, onAttempt: () => {} },
      );
      spent += o.prices.cost(created.priceKey, res.usage);
      const call = res.tool_calls.find((c) => c.name === VERDICT_TOOL);
      if (!call) {
        why = "no verdict tool call";
        continue;
      }
      let args: unknown;
      try {
        args = JSON.parse(call.arguments);
      } catch {
        why = `verdict arguments are not JSON: ${call.arguments.slice(0, 200)}`;
        continue;
      }
      const v = Verdict.safeParse(args);
      if (v.success) return v.data.equivalent;
      why = `verdict arguments ${JSON.stringify(args).slice(0, 200)} lack a boolean "equivalent"`;
    }
    throw new Error(
      `judge ${created.model.name} gave no valid verdict for question ${it.question.id} ` +
        `(${JSON.stringify(it.answer)} vs the reference) in ${VERDICT_ATTEMPTS} replies: ${why}`,
    );
  };
  return {
    id: created.model.name,
    async judge(items) {
      const out: boolean[] = [];
      for (const it of items) {
        out.push(await ask(it));
        o.onProgress?.(out.length, items.length, spent);
      }
      return out;
    },
    spentUsd: () => spent,
  };
}
