/**
 * Ollama's OpenAI-compatible endpoint as it answers: models listed with their tag
 * (`llama3.2:latest`), `content: ""` beside tool calls, `finish_reason: "stop"` even with tool
 * calls, usage without a cached-token field, 404 `model "x" not found, try pulling it first`.
 */
import { type StyleOptions, type StyleServer, startStyleServer } from "./openai-style.js";

export function startOllamaServer(o: StyleOptions): Promise<StyleServer> {
  return startStyleServer(
    {
      models: (model) => ({
        object: "list",
        data: [{ id: `${model}:latest`, object: "model", created: 0, owned_by: "library" }],
      }),
      error: (kind, model) =>
        kind === "auth"
          ? { status: 401, body: { error: { message: "unauthorized", type: "api_error", param: null, code: null } } }
          : {
              status: 404,
              body: {
                error: {
                  message: `model "${model}" not found, try pulling it first`,
                  type: "api_error",
                  param: null,
                  code: null,
                },
              },
            },
      reply(turn, bill) {
        bill({ input: turn.promptTokens, cached: 0, output: turn.outputTokens });
        return {
          status: 200,
          body: {
            id: `chatcmpl-${turn.index}`,
            object: "chat.completion",
            created: 0,
            model: turn.body.model,
            system_fingerprint: "fp_ollama",
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: "",
                  tool_calls: turn.calls.map((c, i) => ({
                    id: c.id,
                    index: i,
                    type: "function",
                    function: { name: c.name, arguments: JSON.stringify(c.args) },
                  })),
                },
                finish_reason: turn.truncated ? "length" : "stop",
              },
            ],
            usage: {
              prompt_tokens: turn.promptTokens,
              completion_tokens: turn.outputTokens,
              total_tokens: turn.promptTokens + turn.outputTokens,
            },
          },
        };
      },
    },
    { ...o, model: o.model.replace(/:latest$/, "") },
  );
}
