import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { normalizeAnswer } from "./answer-match.js";

/** One pair for a judge: does `answer` name the same thing as `truth` for this question? */
export interface JudgeItem {
  question: { id: string; title: string; criteria: string };
  truth: string;
  answer: string;
}

/**
 * An answer judge (e.g. a model asked "do these two answers name the same thing?"). Asynchronous
 * and possibly costly, so scorers never call it: they read its verdicts from a `JudgeCache`, which
 * `fillJudgeCache` fills ahead of (re)scoring. Off by default.
 */
export interface AnswerJudge {
  readonly id: string;
  judge(items: readonly JudgeItem[]): Promise<boolean[]>;
}

const CacheFile = z
  .object({
    cache: z.literal("open-forecast-judge/1"),
    entries: z.record(
      z.string().regex(/^[0-9a-f]{32}$/),
      z.object({ equivalent: z.boolean(), judge: z.string().min(1) }).strict(),
    ),
  })
  .strict();

/** The cache key of a pair: sha256 over (question id, normalized truth, normalized answer), 32 hex digits. */
export function judgeKey(questionId: string, truth: string, answer: string): string {
  return createHash("sha256")
    .update(`${questionId}\u0000${normalizeAnswer(truth)}\u0000${normalizeAnswer(answer)}`)
    .digest("hex")
    .slice(0, 32);
}

/**
 * The persistent verdict cache of an answer judge: a JSON file keyed by `judgeKey`. The truth is
 * part of the key, so a verdict never outlives a changed answer. A missing file is an empty cache;
 * `save()` writes atomically (temp file + rename).
 */
export class JudgeCache {
  readonly path: string;
  private readonly entries: Map<string, { equivalent: boolean; judge: string }>;

  private constructor(path: string, entries: Map<string, { equivalent: boolean; judge: string }>) {
    this.path = path;
    this.entries = entries;
  }

  static open(path: string): JudgeCache {
    if (!existsSync(path)) return new JudgeCache(path, new Map());
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new Error(`judge cache ${path} is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = CacheFile.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `judge cache ${path} is invalid at "${parsed.error.issues[0]?.path.join(".") ?? ""}": ${parsed.error.issues[0]?.message ?? ""}`,
      );
    return new JudgeCache(path, new Map(Object.entries(parsed.data.entries)));
  }

  get size(): number {
    return this.entries.size;
  }

  /** the cached verdict, or undefined when the pair was never judged */
  verdict(questionId: string, truth: string, answer: string): boolean | undefined {
    return this.entries.get(judgeKey(questionId, truth, answer))?.equivalent;
  }

  has(questionId: string, truth: string, answer: string): boolean {
    return this.entries.has(judgeKey(questionId, truth, answer));
  }

  set(questionId: string, truth: string, answer: string, equivalent: boolean, judge: string): void {
    this.entries.set(judgeKey(questionId, truth, answer), { equivalent, judge });
  }

  save(): void {
    const entries = Object.fromEntries([...this.entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify({ cache: "open-forecast-judge/1", entries }, null, 1)}\n`);
    renameSync(`${this.path}.tmp`, this.path);
  }
}

/**
 * Asks `judge` about every distinct pair not yet in `cache` (one batch), stores the verdicts and
 * saves the cache. Returns the number of pairs judged (0: nothing to ask, the judge is not called).
 */
export async function fillJudgeCache(
  cache: JudgeCache,
  judge: AnswerJudge,
  items: readonly JudgeItem[],
): Promise<number> {
  const seen = new Set<string>();
  const unjudged: JudgeItem[] = [];
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
