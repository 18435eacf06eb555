import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { normalizeAnswer } from "./answer-match.js";
const CacheFile = z.object({
  cache: z.literal("open-forecast-judge/1"),
  entries: z.record(
    z.string().regex(/^[0-9a-f]{32}$/),
    z.object({ equivalent: z.boolean(), judge: z.string().min(1) }).strict()
  )
}).strict();
function judgeKey(questionId, truth, answer) {
  return createHash("sha256").update(`${questionId}\0${normalizeAnswer(truth)}\0${normalizeAnswer(answer)}`).digest("hex").slice(0, 32);
}
class JudgeCache {
  path;
  entries;
  constructor(path, entries) {
    this.path = path;
    this.entries = entries;
  }
  static open(path) {
    if (!existsSync(path)) return new JudgeCache(path, /* @__PURE__ */ new Map());
    let raw;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new Error(`judge cache ${path} is not valid JSON: ${e.message}`);
    }
    const parsed = CacheFile.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `judge cache ${path} is invalid at "${parsed.error.issues[0]?.path.join(".") ?? ""}": ${parsed.error.issues[0]?.message ?? ""}`
      );
    return new JudgeCache(path, new Map(Object.entries(parsed.data.entries)));
  }
  get size() {
    return this.entries.size;
  }
  /** the cached verdict, or undefined when the pair was never judged */
  verdict(questionId, truth, answer) {
    return this.entries.get(judgeKey(questionId, truth, answer))?.equivalent;
  }
  has(questionId, truth, answer) {
    return this.entries.has(judgeKey(questionId, truth, answer));
  }
  set(questionId, truth, answer, equivalent, judge) {
    this.entries.set(judgeKey(questionId, truth, answer), { equivalent, judge });
  }
  save() {
    const entries = Object.fromEntries([...this.entries.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify({ cache: "open-forecast-judge/1", entries }, null, 1)}
`);
    renameSync(`${this.path}.tmp`, this.path);
  }
}
async function fillJudgeCache(cache, judge, items) {
  const seen = /* @__PURE__ */ new Set();
  const unjudged = [];
  for (const it of items) {
    const k = judgeKey(it.question.id, it.truth, it.answer);
    if (seen.has(k) || cache.has(it.question.id, it.truth, it.answer)) continue;
    seen.add(k);
    unjudged.push(it);
  }
  if (unjudged.length === 0) return 0;
  const verdicts = await judge.judge(unjudged);
  if (verdicts.length !== unjudged.length)
    throw new Error(`judge ${judge.id} returned ${verdicts.length} verdicts for ${unjudged.length} pairs`);
  unjudged.forEach((it, i) => {
    cache.set(it.question.id, it.truth, it.answer, verdicts[i] === true, judge.id);
  });
  cache.save();
  return unjudged.length;
}
export {
  JudgeCache,
  fillJudgeCache,
  judgeKey
};
//# sourceMappingURL=judge-cache.js.map
