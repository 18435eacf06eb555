import Anthropic from "@anthropic-ai/sdk";
import { mapSdkError } from "./http-error.js";
import {
  ModelError
} from "./model.js";
import { splitModelName } from "./provider-name.js";
function resolveAnthropicEndpoint(env) {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) throw new Error("anthropic: models need an API key: set the environment variable ANTHROPIC_API_KEY");
  const base = env.ANTHROPIC_BASE_URL?.trim();
  return base ? { apiKey, baseURL: base } : { apiKey };
}
function parseInput(args) {
  try {
    const v = JSON.parse(args);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
function toAnthropicMessages(messages) {
  const turns = [];
  const push = (role, blocks) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const m of messages) {
    switch (m.role) {
      case "user":
        push("user", [{ type: "text", text: m.content }]);
        break;
      case "assistant": {
        const blocks = [];
        if (m.content) blocks.push({ type: "text", text: m.content });
        for (const c of m.tool_calls ?? []) {
          blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parseInput(c.arguments) });
        }
        push("assistant", blocks.length > 0 ? blocks : [{ type: "text", text: "(no reply)" }]);
        break;
      }
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: m.content }]);
        break;
      default: {
        const never = m;
        throw new Error(`unknown message ${JSON.stringify(never)}`);
      }
    }
  }
  for (const t of turns) {
    if (t.role === "user") {
      const results = t.content.filter((b) => b.type === "tool_result");
      const rest = t.content.filter((b) => b.type !== "tool_result");
      t.content = [...results, ...rest];
    }
  }
  return turns;
}
const EPHEMERAL = { type: "ephemeral" };
function withConversationBreakpoints(turns) {
  const out = turns.map((t) => ({ role: t.role, content: [...t.content] }));
  const mark = (i) => {
    const blocks = out[i]?.content;
    if (blocks === void 0 || blocks.length === 0) return;
    const b = blocks[blocks.length - 1];
    if (b.type === "text" || b.type === "tool_result" || b.type === "tool_use")
      blocks[blocks.length - 1] = { ...b, cache_control: EPHEMERAL };
  };
  const last = out.length - 1;
  if (last < 0) return out;
  mark(last);
  for (let i = last - 1; i >= 0; i--) {
    if (out[i].role === "user") {
      mark(i);
      break;
    }
  }
  return out;
}
function mapAnthropicError(err, label) {
  return mapSdkError(err, label, Anthropic);
}
const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
class AnthropicModel {
  constructor(name, o) {
    this.name = name;
    const { provider, model } = splitModelName(name);
    if (provider !== "anthropic") throw new Error(`"${name}" is not an anthropic: model`);
    this.wireModel = model;
    this.endpoint = o.endpoint.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL;
    this.label = `${name} at ${this.endpoint}`;
    this.client = new Anthropic({
      apiKey: o.endpoint.apiKey,
      ...o.endpoint.baseURL ? { baseURL: o.endpoint.baseURL } : {},
      maxRetries: 0,
      timeout: o.timeoutMs ?? 12e4
    });
  }
  name;
  wireModel;
  endpoint;
  label;
  client;
  /** The request body sent for `req` (exposed for tests and logs). */
  buildBody(req) {
    const body = {
      model: this.wireModel,
      max_tokens: req.settings.maxOutputTokens,
      messages: withConversationBreakpoints(toAnthropicMessages(req.messages))
    };
    if (req.system !== "") {
      body.system = [{ type: "text", text: req.system, cache_control: { type: "ephemeral" } }];
    }
    if (req.tools.length > 0) {
      body.tools = req.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters
      }));
    }
    if (req.settings.temperature !== void 0) {
      body.temperature = req.settings.temperature;
    }
    const effort = req.settings.effort;
    if (effort !== void 0 && effort !== "none") body.output_config = { effort };
    return body;
  }
  /** GET /v1/models (one entry): a refused key or an unreachable endpoint fails here, before the episode. */
  async preflight() {
    try {
      await this.client.models.list({ limit: 1 });
    } catch (err) {
      throw mapAnthropicError(err, this.label);
    }
  }
  async generate(req, _ctx) {
    let msg;
    try {
      msg = await this.client.messages.create(this.buildBody(req));
    } catch (err) {
      throw mapAnthropicError(err, this.label);
    }
    const blocks = Array.isArray(msg.content) ? msg.content : [];
    if (blocks.length === 0 && msg.stop_reason !== "end_turn" && msg.stop_reason !== "max_tokens") {
      throw new ModelError("empty", `${this.label}: the reply has no content (stop_reason ${String(msg.stop_reason)})`);
    }
    const texts = [];
    const toolCalls = [];
    for (const b of blocks) {
      if (b.type === "text") texts.push(b.text);
      else if (b.type === "tool_use") toolCalls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
    }
    const u = msg.usage;
    const read = u.cache_read_input_tokens ?? 0;
    const written = u.cache_creation_input_tokens ?? 0;
    const response = {
      content: texts.length > 0 ? texts.join("") : null,
      tool_calls: toolCalls,
      usage: {
        input_tokens: u.input_tokens + written + read,
        cached_input_tokens: read,
        output_tokens: u.output_tokens
      }
    };
    if (msg.stop_reason) response.finish_reason = msg.stop_reason;
    return response;
  }
}
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  AnthropicModel,
  resolveAnthropicEndpoint,
  toAnthropicMessages,
  withConversationBreakpoints
};
//# sourceMappingURL=anthropic-provider.js.map
