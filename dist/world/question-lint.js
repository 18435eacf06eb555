import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
const QUESTION_LINT_JSON = "question-lint.json";
const LABEL_ANSWERS = /* @__PURE__ */ new Set(["yes", "no", "true", "false"]);
const MIN_ANSWER_CHARS = 3;
const MAX_LISTED = 200;
const lower = (s) => s.toLowerCase();
const isWordChar = (c) => c !== void 0 && /[\p{L}\p{N}]/u.test(c);
function findWord(hay, needle) {
  let from = 0;
  for (; ; ) {
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
function excerpt(text, at, len) {
  const a = Math.max(0, at - 40);
  const b = Math.min(text.length, at + len + 40);
  return `${a > 0 ? "\u2026" : ""}${text.slice(a, b).replace(/\s+/g, " ")}${b < text.length ? "\u2026" : ""}`;
}
function lintQuestions(world, truth) {
  const qs = world.prepare("SELECT id, title, background, open, visible_at FROM question ORDER BY id").all();
  const answers = truth.prepare("SELECT question, answer FROM question_answer ORDER BY question").all();
  const texts = qs.map((q) => ({
    id: q.id,
    title: q.title,
    background: q.background,
    lt: lower(q.title),
    lb: lower(q.background)
  }));
  const leaks = [];
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
      for (const field of ["title", "background"]) {
        const at = findWord(field === "title" ? t.lt : t.lb, needle);
        if (at < 0) continue;
        count++;
        if (leaks.length < MAX_LISTED)
          leaks.push({
            question: a.question,
            answer: ans,
            in_question: t.id,
            field,
            excerpt: excerpt(t[field], at, needle.length)
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
    released_before_open: qs.filter((q) => q.visible_at < q.open).map((q) => q.id)
  };
}
function formatQuestionLint(r, maxLines = 20) {
  const lines = [
    `question lint: ${r.questions} questions, ${r.answers} with answers; ${r.checked} answers checked (${r.skipped.label} binary labels and ${r.skipped.short} short answers not checked); ${r.leak_count} leak${r.leak_count === 1 ? "" : "s"}; ${r.released_before_open.length} released before open`
  ];
  for (const l of r.leaks.slice(0, maxLines))
    lines.push(`  ${l.question}: answer "${l.answer}" appears in ${l.in_question}'s ${l.field}: ${l.excerpt}`);
  if (r.leak_count > Math.min(maxLines, r.leaks.length))
    lines.push(`  \u2026 ${r.leak_count - Math.min(maxLines, r.leaks.length)} more`);
  for (const id of r.released_before_open.slice(0, maxLines)) lines.push(`  ${id}: visible before its open date`);
  return lines.join("\n");
}
function readQuestionLint(worldDir) {
  const path = join(worldDir, QUESTION_LINT_JSON);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8"));
}
export {
  QUESTION_LINT_JSON,
  formatQuestionLint,
  lintQuestions,
  readQuestionLint
};
//# sourceMappingURL=question-lint.js.map
