import { NotVisibleError } from "../../world/as-of-view.js";
class QuestionsNow {
  now;
  questions;
  resolutions;
  constructor(view) {
    this.now = view.now();
    this.questions = view.questions.list().filter((q) => q.open <= this.now).sort((a, b) => a.open - b.open || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.resolutions = new Map(view.questions.resolutions().map((r) => [r.question, r]));
  }
  status(q) {
    if (this.resolutions.has(q.id)) return "resolved";
    return this.now < q.resolve ? "open" : "closed";
  }
}
function visibleQuestion(view, id) {
  const q = view.questions.get(id);
  if (q.open > view.now()) throw new NotVisibleError("question", id);
  return q;
}
function publicAnswer(view, id) {
  for (const r of view.questions.resolutions()) if (r.question === id) return r;
  return null;
}
export {
  QuestionsNow,
  publicAnswer,
  visibleQuestion
};
//# sourceMappingURL=question-state.js.map
