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
export {
  MarkBook
};
//# sourceMappingURL=mark-book.js.map
