import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { OutsideAgent } from "./external-actor.js";

export const MCP_SERVER_NAME = "relive";

/**
 * The text items of one tool result: the in-process tool text, then the clock line. The clock item
 * starts with a line break: clients that join a result's text items into one string without a
 * separator (the OpenAI Agents SDK's chat-completions model does) still give the model the tool text
 * and the clock on lines of their own (`<text>\n<clock>`), never `{...}now: ...`.
 */
export function toolResultContent(r: { text: string; clock: string }): { type: "text"; text: string }[] {
  return [
    { type: "text", text: r.text },
    { type: "text", text: `\n${r.clock}` },
  ];
}

/**
 * An MCP server (the SDK's low-level `Server`) over one run's outside agent. `tools/list` gives the
 * run's tools with the JSON Schemas the in-process runtime documents; `tools/call` goes to the
 * actor's queue, so validation, prices, rate limits, rejections and ledgering are the runtime's own:
 * the SDK validates nothing itself. A rejection is a tool result with `isError` and the in-process text.
 * Call after `outside.ready` (the instructions need the run's task).
 */
export function createMcpServer(outside: OutsideAgent, version: string): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    { capabilities: { tools: {} }, instructions: outside.instructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await outside.tools()).map((d) => ({
      name: d.name,
      description: d.description,
      inputSchema: d.parameters as { type: "object"; [k: string]: unknown },
      _meta: { "relive/kind": d.kind },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const r = await outside.call(req.params.name, req.params.arguments);
    return {
      content: toolResultContent(r),
      ...(r.ok ? {} : { isError: true }),
    };
  });
  return server;
}
