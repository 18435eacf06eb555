class MarkBook {
  byQuestion = /* @__PURE__ */ new Map();
  order = [];
  get(question) {
    return this.byQuestion.get(question) ?? null;
  }
  add(m) {
    if (this.byQuestion.has(m.question)) throw new Error(`internal: question ${m.question} already marked`);
    this.byQuestion.set(m.question, m);
    this.order.push(m);
  }
  /** every accepted mark, in acceptance order */
  all() {
    return this.order;
  }
}
const books = /* @__PURE__ */ new WeakMap();
function markBookOf(ctx) {
  let b = books.get(ctx);
  if (!b) {
    b = new MarkBook();
    books.set(ctx, b);
  }
  return b;
}
export {
  MarkBook,
  markBookOf
};
//# sourceMappingURL=mark-book.js.map
