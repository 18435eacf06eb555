import { createReadStream, existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { DailyBriefEvent, LlmRejectedEvent, ToolCallEvent, WakeEvent } from "../ledger/events.js";
const WAKE = '"type":"wake"';
const LLM_REJECTED = '"type":"llm_rejected"';
const UNPAID = '"status":"unpaid"';
const BRIEF = '"type":"daily_brief"';
async function scanLedger(path, o) {
  if (!existsSync(path)) return null;
  if (!(o.maxWakes >= 2)) throw new Error("maxWakes must be at least 2");
  let wakes = [];
  let stride = 1;
  let totalWakes = 0;
  let exhaustedAt = null;
  const exhausted = (t) => {
    if (exhaustedAt === null || t < exhaustedAt) exhaustedAt = t;
  };
  let pending = null;
  let lineNo = 0;
  const rl = createInterface({
    input: createReadStream(path, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY
  });
  for await (const line of rl) {
    lineNo++;
    if (pending) throw pending;
    const isWake = line.includes(WAKE);
    if (!isWake && !line.includes(LLM_REJECTED) && !line.includes(UNPAID) && !line.includes(BRIEF)) continue;
    let json;
    try {
      json = JSON.parse(line);
    } catch (err) {
      pending = new Error(`${path}:${lineNo}: not a valid ledger line: ${err.message}`);
      continue;
    }
    const type = json.type;
    const schema = type === "wake" ? WakeEvent : type === "llm_rejected" ? LlmRejectedEvent : type === "tool_call" ? ToolCallEvent : type === "daily_brief" ? DailyBriefEvent : null;
    if (!schema) continue;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      pending = new Error(
        `${path}:${lineNo}: not a valid ${type} event: ${issue.path.join(".") || "(root)"}: ${issue.message}`
      );
      continue;
    }
    const e = parsed.data;
    switch (e.type) {
      case "wake":
        if (totalWakes % stride === 0) {
          wakes.push({ t: e.t, reason: e.reason });
          if (wakes.length > o.maxWakes) {
            wakes = wakes.filter((_, i) => i % 2 === 0);
            stride *= 2;
          }
        }
        totalWakes++;
        break;
      case "llm_rejected":
        exhausted(e.t);
        break;
      case "tool_call":
        if (e.status === "unpaid") exhausted(e.t);
        break;
      case "daily_brief":
        if (e.left_usd <= 0) exhausted(e.t - 1);
        break;
    }
  }
  return { wakes, totalWakes, stride, exhaustedAt };
}
export {
  scanLedger
};
//# sourceMappingURL=ledger-scan.js.map
