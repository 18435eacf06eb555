import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
let encoder = null;
function countTokens(text) {
  if (text.length === 0) return 0;
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text).length;
}
const MESSAGE_OVERHEAD_TOKENS = 4;
function messageTokens(m) {
  switch (m.role) {
    case "user":
      return MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
    case "assistant":
      return MESSAGE_OVERHEAD_TOKENS + countTokens(m.content ?? "") + (m.tool_calls ?? []).reduce((s, c) => s + 3 + countTokens(c.name) + countTokens(c.arguments), 0);
    case "tool":
      return MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
    default: {
      const never = m;
      throw new Error(`unknown message ${JSON.stringify(never)}`);
    }
  }
}
function toolSpecTokens(tools) {
  return countTokens(JSON.stringify(tools));
}
export {
  MESSAGE_OVERHEAD_TOKENS,
  countTokens,
  messageTokens,
  toolSpecTokens
};
//# sourceMappingURL=token-counter.js.map
