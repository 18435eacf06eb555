/**
 * OpenRouter as it answers: `usage.cost` (its own charge) and `prompt_tokens_details.cached_tokens`
 * (a prefix cache over earlier requests), a `reasoning` field, upstream failures as an error object
 * in an HTTP 200 body (`{error: {code: 502, message: "Provider returned error", metadata: {raw,
 * provider_name}}}`), a 401 `No auth credentials found`, a 400 `… is not a valid model ID`, a public
 * GET /models and a keyed GET /key.
 */
import type { ModelPrice } from "../../../../src/models/price-table.js";
import { tokens } from "./http.js";
import { type StyleOptions, type StyleServer, startStyleServer } from "./openai-style.js";
import { PrefixSet } from "./prefix-set.js";

export interface OpenRouterOptions extends StyleOptions {
  /** the price it charges at (`usage.cost`), $/M tokens */
  price: Pick<ModelPrice, "input" | "cached_input" | "output">;
  /** charge this many times the price (a price-table mismatch) */
  overcharge?: number;
  /** chat request indexes answered with an error in a 200 body */
  errorIn200At?: readonly number[];
}

export function startOpenRouterServer(o: OpenRouterOptions): Promise<StyleServer & { cacheControlSeen: number }> {
  const seen = new PrefixSet();
  const out = { cacheControlSeen: 0 };
  const server = startStyleServer(
    {
      modelsPublic: true,
      models: (model) => ({
        data: [
          { id: model, name: model },
          { id: "openai/gpt-4o", name: "GPT-4o" },
        ],
      }),
      route(x, authorised) {
        if (x.method === "GET" && x.path === "/v1/key")
          return authorised
            ? { status: 200, body: { data: { label: "sk-or-v1-test", usage: 0, limit: null } } }
            : { status: 401, body: { error: { message: "No auth credentials found", code: 401 } } };
        return null;
      },
      error: (kind, model) =>
        kind === "auth"
          ? { status: 401, body: { error: { message: "No auth credentials found", code: 401 } } }
          : { status: 400, body: { error: { message: `${model} is not a valid model ID`, code: 400 } } },
      preempt: (index) =>
        o.errorIn200At?.includes(index)
          ? {
              status: 200,
              body: {
                error: {
                  code: 502,
                  message: "Provider returned error",
                  metadata: { raw: "upstream: overloaded, try again", provider_name: "Fireworks" },
                },
                user_id: "user_test",
              },
            }
          : null,
      reply(turn, bill) {
        const text = JSON.stringify(turn.body.messages ?? []);
        if (text.includes('"cache_control"')) out.cacheControlSeen++;
        const lcp = seen.add(text);
        const cached = Math.min(turn.promptTokens, Math.floor(lcp / 4));
        const p = o.price;
        const cost =
          (((turn.promptTokens - cached) * p.input + cached * p.cached_input + turn.outputTokens * p.output) / 1e6) *
          (o.overcharge ?? 1);
        bill({ input: turn.promptTokens, cached, output: turn.outputTokens, cost });
        return {
          status: 200,
          body: {
            id: `gen-${turn.index}`,
            provider: "Fireworks",
            model: turn.body.model,
            object: "chat.completion",
            created: 0,
            choices: [
              {
                index: 0,
                logprobs: null,
                finish_reason: turn.truncated ? "length" : "tool_calls",
                native_finish_reason: turn.truncated ? "max_tokens" : "tool_calls",
                message: {
                  role: "assistant",
                  content: "",
                  refusal: null,
                  reasoning: "The policy says to call these tools.",
                  tool_calls: turn.calls.map((c, i) => ({
                    index: i,
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: JSON.stringify(c.args) },
                  })),
                },
              },
            ],
            usage: {
              prompt_tokens: turn.promptTokens,
              completion_tokens: turn.outputTokens,
              total_tokens: turn.promptTokens + turn.outputTokens,
              cost,
              is_byok: false,
              prompt_tokens_details: { cached_tokens: cached },
              completion_tokens_details: { reasoning_tokens: tokens("The policy says to call these tools.") },
            },
          },
        };
      },
    },
    o,
  );
  return server.then(
    (s) =>
      Object.defineProperty(s, "cacheControlSeen", { get: () => out.cacheControlSeen }) as StyleServer & {
        cacheControlSeen: number;
      },
  );
}
