/**
 * vLLM's OpenAI server as it answers: `reasoning_content` beside `content: null`, arguments as JSON
 * text, usage without any cached-token field, `finish_reason: "length"` when cut off, and errors as
 * `{object: "error", message, type, code}` (404 "The model `x` does not exist.").
 */
import { type StyleOptions, type StyleServer, startStyleServer } from "./openai-style.js";

export function startVllmServer(o: StyleOptions): Promise<StyleServer> {
  return startStyleServer(
    {
      models: (model) => ({
        object: "list",
        data: [{ id: model, object: "model", owned_by: "vllm", max_model_len: 32768 }],
      }),
      error: (kind, model) =>
        kind === "auth"
          ? { status: 401, body: { error: "Unauthorized" } }
          : {
              status: 404,
              body: {
                object: "error",
                message: `The model \`${model}\` does not exist.`,
                type: "NotFoundError",
                param: null,
                code: 404,
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
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: null,
                  reasoning_content: "Thinking about which tool to call next.",
                  tool_calls: turn.calls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: JSON.stringify(c.args) },
                  })),
                },
                finish_reason: turn.truncated ? "length" : "tool_calls",
                stop_reason: null,
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
    o,
  );
}
