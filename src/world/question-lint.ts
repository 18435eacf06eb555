import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";

/** Written into a world directory whose world has questions (beside world.json). */
export const QUESTION_LINT_JSON = "question-lint.json";

/** Answers that say nothing on their own (binary labels): never linted. */
const LABEL_ANSWERS = new Set(["yes", "no", "true", "false"]);
/** answers shorter than this (after trimming) are not linted: they match everywhere */
const MIN_ANSWER_CHARS = 3;
/** leaks listed in full (all are counted) */
const MAX_LISTED = 200;

export interface QuestionLeak {
  /** the question whose answer leaks */
  question: string;
  answer: string;
  /** the other question whose text contains it */
  in_question: string;
  field: "title" | "background";
  excerpt: string;
}

export interface QuestionLintReport {
  lint: "question-set/1";
  questions: number;
  /** questions with an answer in truth */
  answers: number;
  /** answers searched for in the other questions' titles and backgrounds */
  checked: number;
  /** answers not searched: binary labels (Yes/No/True/False) and answers under 3 characters */
  skipped: { label: number; short: number };
  leak_count: number;
  /** the first 200 leaks, by question then other question */
  leaks: QuestionLeak[];
  /** questions released (visible_at) before their open date */
  released_before_open: string[];
}

const lower = (s: string) => s.toLowerCase();
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Every occurrence of `needle` in `hay` (both lowercased) that starts and ends on a word boundary. */
function findWord(hay: string, needle: string): number {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return -1;
    const before = hay[i - 1];
    const after = hay[i + needle.length];
    const edgeStart = !isWordChar(needle[0]) || !isWordChar(before);
    const edgeEnd = !isWordChar(needle[needle.length - 1]) || !isWordChar(after);
    if (edgeStart && edgeEnd) return i;
    from = i + 1;
  }
}

function excerpt(text: string, at: number, len: number): string {
  const a = Math.max(0, at - 40);
  const b = Math.min(text.length, at + len + 40);
  return `${a > 0 ? "…" : ""}${text.slice(a, b).replace(/\s+/g, " ")}${b < text.length ? "…" : ""}`;
}

/**
 * The question-set leakage lint (tasks.md §9), run by `WorldBuilder.finish()`: for every question
 * whose answer is informative (not a binary label, at least 3 characters), report each *other*
 * question whose title or background contains that answer verbatim (case-insensitive, on word
 * boundaries): an agent reading that other question would learn the answer. Also lists questions
 * whose row is visible before their open date (they would be released early).
 */
export function lintQuestions(world: Database.Database, truth: Database.Database): QuestionLintReport {
  const qs = world.prepare("SELECT id, title, background, open, visible_at FROM question ORDER BY id").all() as {
    id: string;
    title: string;
    background: string;
    open: number;
    visible_at: number;
  }[];
  const answers = truth.prepare("SELECT question, answer FROM question_answer ORDER BY question").all() as {
    question: string;
    answer: string;
  }[];
  const texts = qs.map((q) => ({
    id: q.id,
    title: q.title,
    background: q.background,
    lt: lower(q.title),
    lb: lower(q.background),
  }));
  const leaks: QuestionLeak[] = [];
  let count = 0;
  let checked = 0;
  let label = 0;
  let short = 0;
  for (const a of answers) {
    const ans = a.answer.trim();
    const needle = lower(ans);
    if (LABEL_ANSWERS.has(needle)) {
      label++;
      continue;
    }
    if (ans.length < MIN_ANSWER_CHARS) {
      short++;
      continue;
    }
    checked++;
    for (const t of texts) {
      if (t.id === a.question) continue;
      for (const field of ["title", "background"] as const) {
        const at = findWord(field === "title" ? t.lt : t.lb, needle);
        if (at < 0) continue;
        count++;
        if (leaks.length < MAX_LISTED)
          leaks.push({
            question: a.question,
            answer: ans,
            in_question: t.id,
            field,
            excerpt: excerpt(t[field], at, needle.length),
          });
      }
    }
  }
  return {
    lint: "question-set/1",
    questions: qs.length,
    answers: answers.length,
    checked,
    skipped: { label, short },
    leak_count: count,
    leaks,
    released_before_open: qs.filter((q) => q.visible_at < q.open).map((q) => q.id),
  };
}

/** A few lines for a terminal: counts, then each listed leak. */
export function formatQuestionLint(r: QuestionLintReport, maxLines = 20): string {
  const lines = [
    `question lint: ${r.questions} questions, ${r.answers} with answers; ${r.checked} answers checked ` +
      `(${r.skipped.label} binary labels and ${r.skipped.short} short answers not checked); ` +
      `${r.leak_count} leak${r.leak_count === 1 ? "" : "s"}; ${r.released_before_open.length} released before open`,
  ];
  for (const l of r.leaks.slice(0, maxLines))
    lines.push(`  ${l.question}: answer "${l.answer}" appears in ${l.in_question}'s ${l.field}: ${l.excerpt}`);
  if (r.leak_count > Math.min(maxLines, r.leaks.length))
    lines.push(`  … ${r.leak_count - Math.min(maxLines, r.leaks.length)} more`);
  for (const id of r.released_before_open.slice(0, maxLines)) lines.push(`  ${id}: visible before its open date`);
  return lines.join("\n");
}

/** The lint report of a built world directory, or null when the world has no questions. */
export function readQuestionLint(worldDir: string): QuestionLintReport | null {
  const path = join(worldDir, QUESTION_LINT_JSON);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8")) as QuestionLintReport;
}
