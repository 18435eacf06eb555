const isTruncated = (r) => r.finish_reason === "length" || r.finish_reason === "max_tokens";
const MODEL_ERROR_KINDS = [
  "rate_limit",
  "server",
  "timeout",
  "empty",
  "auth",
  "bad_request",
  "network",
  "not_found",
  "context_length"
];
class ModelError extends Error {
  constructor(kind, message, retryAfterMs, status) {
    super(message);
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
    this.status = status;
    this.name = "ModelError";
  }
  kind;
  retryAfterMs;
  status;
  get retryable() {
    switch (this.kind) {
      case "rate_limit":
      case "server":
      case "timeout":
      case "empty":
      case "network":
        return true;
      case "auth":
      case "bad_request":
      case "not_found":
      case "context_length":
        return false;
      default: {
        const never = this.kind;
        throw new Error(`unknown model error kind ${String(never)}`);
      }
    }
  }
  /**
   * The endpoint itself is broken (bad key, unknown model, unreachable after retries): no later call
   * can succeed, so the run stops before it scores (`ProviderFailedError`).
   */
  get endpointBroken() {
    return this.kind === "auth" || this.kind === "not_found" || this.kind === "network";
  }
}
class ProviderFailedError extends Error {
  constructor(model, endpoint, error, where) {
    super(
      `provider failure (${where}): ${model} at ${endpoint ?? "(no endpoint)"}: ${error.kind}${error.status !== void 0 ? ` (HTTP ${error.status})` : ""}: ${error.message}`
    );
    this.model = model;
    this.endpoint = endpoint;
    this.error = error;
    this.where = where;
    this.name = "ProviderFailedError";
  }
  model;
  endpoint;
  error;
  where;
  /** the run directory the failure stopped (set by the runner; `relive resume` continues it) */
  runDir;
}
export {
  MODEL_ERROR_KINDS,
  ModelError,
  ProviderFailedError,
  isTruncated
};
//# sourceMappingURL=model.js.map
