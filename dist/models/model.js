class ModelError extends Error {
  constructor(kind, message, retryAfterMs) {
    super(message);
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
    this.name = "ModelError";
  }
  kind;
  retryAfterMs;
  get retryable() {
    return this.kind !== "auth" && this.kind !== "bad_request";
  }
}
export {
  ModelError
};
//# sourceMappingURL=model.js.map
