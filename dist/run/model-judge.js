import { z } from "zod";
import { generateWithRetries } from "../models/retry.js";
const VERDICT_TOOL = "verdict";
const Verdict = z.object({ equivalent: z.boolean() }).strict();
const VERDICT_ATTEMPTS = 3;
const SYSTEM = "You check answers to forecasting questions after they resolved. Given the question, its resolution criteria, the reference answer and a candidate answer, decide whether the candidate names the same thing as the reference (the same entity, value or option, allowing for spelling, abbreviations, titles and word order), not merely something related. Call the verdict tool once.";
function judgePrompt(it) {
  return [
    `Question: ${it.question.title}`,
    `Resolution criteria: ${it.question.criteria}`,
    `Reference answer: ${it.truth}`,
    `Candidate answer: ${it.answer}`
  ].join("\n");
}
function modelAnswerJudge(created, o) {
  let spent = 0;
  const tool = {
    name: VERDICT_TOOL,
    description: "Your ruling: equivalent = true when the candidate answer names the same thing as the reference.",
    parameters: {
      type: "object",
      properties: { equivalent: { type: "boolean" } },
      required: ["equivalent"],
      additionalProperties: false
    }
  };
  let calls = 0;
  const ask = async (it) => {
    let why = "";
    for (let attempt = 1; attempt <= VERDICT_ATTEMPTS; attempt++) {
      const res = await generateWithRetries(
        created.model,
        {
          system: SYSTEM,
          messages: [{ role: "user", content: judgePrompt(it) }],
          tools: [tool],
          settings: { maxOutputTokens: 256, temperature: 0 }
        },
        { actor: "judge", callIndex: calls++ },
        { ...o.retry, onAttempt: () => {
        } }
      );
      spent += o.prices.cost(created.priceKey, res.usage);
      const call = res.tool_calls.find((c) => c.name === VERDICT_TOOL);
      if (!call) {
        why = "no verdict tool call";
        continue;
      }
      let args;
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
      `judge ${created.model.name} gave no valid verdict for question ${it.question.id} (${JSON.stringify(it.answer)} vs the reference) in ${VERDICT_ATTEMPTS} replies: ${why}`
    );
  };
  return {
    id: created.model.name,
    async judge(items) {
      const out = [];
      for (const it of items) {
        out.push(await ask(it));
        o.onProgress?.(out.length, items.length, spent);
      }
      return out;
    },
    spentUsd: () => spent
  };
}
export {
  judgePrompt,
  modelAnswerJudge
};
//# sourceMappingURL=model-judge.js.map
