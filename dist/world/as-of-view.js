class NotVisibleError extends Error {
  constructor(kind, id) {
    super(`unknown ${kind} id: ${JSON.stringify(id)}`);
    this.name = "NotVisibleError";
  }
}
export {
  NotVisibleError
};
//# sourceMappingURL=as-of-view.js.map
