/**
 * The metering proxy's own reply to a model request made after the run is over. Agent frameworks
 * ask their model once more after every tool result, so the call that ends a run (`finish`, or a
 * clock call past the episode's end) is always followed by a model request; answering it with an
 * error would make every such app end on an exception. Instead it gets a well-formed final answer
 * in the protocol it speaks (no tool calls, zero usage, streamed when it asked for a stream) that
 * says the run is over and that the reply is relive's, not the model's. Nothing is sent upstream,
 * billed or ledgered (the ledger is closed).
 */

export type ClosingEndpoint = "/v1/chat/completions" | "/v1/responses" | "/v1/messages";

export interface ClosingReply {
  contentType: "application/json" | "text/event-stream";
  body: string;
}

/** The text of the closing reply. */
export function closingText(reason: string): string {
  return `relive: ${reason}. This reply is the metering proxy's, not the model's: nothing was sent to the model or billed. The run is over; there is nothing left to do.`;
}

const sse = (data: unknown, event?: string) =>
  `${event !== undefined ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/**
 * The closing reply for `endpoint` (`model`: the run's wire model id), as JSON or as a stream of
 * server-sent events with the events a provider sends for one text answer. `includeUsage`: a chat
 * stream whose request set `stream_options.include_usage` ends with the (zero) usage chunk.
 */
export function closingReply(
  endpoint: ClosingEndpoint,
  x: { model: string; reason: string; stream: boolean; includeUsage: boolean },
): ClosingReply {
  const text = closingText(x.reason);
  const json = (body: unknown): ClosingReply => ({ contentType: "application/json", body: JSON.stringify(body) });
  const events = (body: string): ClosingReply => ({ contentType: "text/event-stream", body });
  switch (endpoint) {
    case "/v1/chat/completions": {
      const base = { id: "chatcmpl-relive-closed", created: 0, model: x.model };
      const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      if (!x.stream)
        return json({
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: text, refusal: null },
              logprobs: null,
              finish_reason: "stop",
            },
          ],
          usage,
        });
      const chunk = { ...base, object: "chat.completion.chunk" };
      return events(
        sse({
          ...chunk,
          choices: [{ index: 0, delta: { role: "assistant", content: text }, logprobs: null, finish_reason: null }],
        }) +
          sse({ ...chunk, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }] }) +
          (x.includeUsage ? sse({ ...chunk, choices: [], usage }) : "") +
          sse("[DONE]"),
      );
    }
    case "/v1/responses": {
      const part = { type: "output_text", text, annotations: [] };
      const item = {
        id: "msg_relive_closed",
        type: "message",
        status: "completed",
        role: "assistant",
        content: [part],
      };
      const response = {
        id: "resp_relive_closed",
        object: "response",
        created_at: 0,
        status: "completed",
        error: null,
        incomplete_details: null,
        model: x.model,
        output: [item],
        usage: {
          input_tokens: 0,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 0,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 0,
        },
      };
      if (!x.stream) return json(response);
      const at = { item_id: item.id, output_index: 0, content_index: 0 };
      const seq: [string, Record<string, unknown>][] = [
        ["response.created", { response: { ...response, status: "in_progress", output: [], usage: null } }],
        ["response.in_progress", { response: { ...response, status: "in_progress", output: [], usage: null } }],
        ["response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress", content: [] } }],
        ["response.content_part.added", { ...at, part: { ...part, text: "" } }],
        ["response.output_text.delta", { ...at, delta: text, logprobs: [] }],
        ["response.output_text.done", { ...at, text, logprobs: [] }],
        ["response.content_part.done", { ...at, part }],
        ["response.output_item.done", { output_index: 0, item }],
        ["response.completed", { response }],
      ];
      return events(seq.map(([type, o], i) => sse({ type, sequence_number: i, ...o }, type)).join(""));
    }
    case "/v1/messages": {
      const message = {
        id: "msg_relive_closed",
        type: "message",
        role: "assistant",
        model: x.model,
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      };
      if (!x.stream) return json(message);
      const seq: [string, Record<string, unknown>][] = [
        ["message_start", { message: { ...message, content: [], stop_reason: null } }],
        ["content_block_start", { index: 0, content_block: { type: "text", text: "" } }],
        ["content_block_delta", { index: 0, delta: { type: "text_delta", text } }],
        ["content_block_stop", { index: 0 }],
        ["message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 0 } }],
        ["message_stop", {}],
      ];
      return events(seq.map(([type, o]) => sse({ type, ...o }, type)).join(""));
    }
    default: {
      const never: never = endpoint;
      throw new Error(`unknown endpoint ${String(never)}`);
    }
  }
}
