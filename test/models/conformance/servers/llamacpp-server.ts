/**
 * llama.cpp's `llama-server` as it answers: tool-call `arguments` as an *object* (as some builds and
 * proxies send them), `content: null` beside tool calls, usage without a cached-token field but with
 * `timings`, the loaded file as the only listed model (the requested name is ignored), and a 400
 * `exceed_context_size_error` when the prompt exceeds its context size `n_ctx`.
 */
import { type StyleOptions, type StyleServer, startStyleServer } from "./openai-style.js";

export function startLlamaCppServer(o: StyleOptions & { nCtx?: number }): Promise<StyleServer> {
  const nCtx = o.nCtx ?? 1_000_000;
  return startStyleServer(
    {
      modelsPublic: true,
      ignoresModelName: true,
      models: () => ({ object: "list", data: [{ id: "model.gguf", object: "model", owned_by: "llamacpp" }] }),
      error: () => ({
        status: 401,
        body: { error: { code: 401, message: "Invalid API Key", type: "authentication_error" } },
      }),
      reply(turn, bill) {
        if (turn.promptTokens > nCtx)
          return {
            status: 400,
            body: {
              error: {
                code: 400,
                message: `the request exceeds the available context size, try increasing it (n_prompt_tokens ${turn.promptTokens}, n_ctx ${nCtx})`,
                type: "exceed_context_size_error",
                n_prompt_tokens: turn.promptTokens,
                n_ctx: nCtx,
              },
            },
          };
        bill({ input: turn.promptTokens, cached: 0, output: turn.outputTokens });
        return {
          status: 200,
          body: {
            id: `chatcmpl-${turn.index}`,
            object: "chat.completion",
            created: 0,
            model: "model.gguf",
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: null,
                  tool_calls: turn.calls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: c.args },
                  })),
                },
                finish_reason: turn.truncated ? "length" : "tool_calls",
              },
            ],
            usage: {
              prompt_tokens: turn.promptTokens,
              completion_tokens: turn.outputTokens,
              total_tokens: turn.promptTokens + turn.outputTokens,
            },
            timings: { prompt_n: turn.promptTokens, predicted_n: turn.outputTokens },
          },
        };
      },
    },
    o,
  );
}
