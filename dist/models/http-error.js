import { ModelError } from "./model.js";
function retryAfterMs(get) {
  const ms = get("retry-after-ms");
  if (ms != null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const s = get("retry-after");
  if (s != null && /^\d+(\.\d+)?$/.test(s.trim())) return Math.ceil(Number(s) * 1e3);
  return void 0;
}
const CONTEXT_LENGTH = /maximum context length|context_length_exceeded|exceeds? the available context size|exceed_context_size|prompt is too long|prompt too long|context window|too many (input )?tokens|reduce the length of the (messages|prompt)/i;
const UNKNOWN_MODEL = /not a valid model|model[^.]{0,120}(not found|does not exist|is not available)|no such model|unknown model|invalid model/i;
const isContextLengthMessage = (m) => CONTEXT_LENGTH.test(m);
function errorFromStatus(status, message, retryAfter) {
  if (status === 429) return new ModelError("rate_limit", message, retryAfter, status);
  if (status === 401 || status === 403) return new ModelError("auth", message, void 0, status);
  if (status === 408) return new ModelError("timeout", message, retryAfter, status);
  if (status === 409 || status >= 500) return new ModelError("server", message, retryAfter, status);
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(message))
    return new ModelError("context_length", message, void 0, status);
  if (status === 404 || UNKNOWN_MODEL.test(message)) return new ModelError("not_found", message, void 0, status);
  return new ModelError("bad_request", message, void 0, status);
}
function mapSdkError(err, label, sdk) {
  if (err instanceof ModelError) return err;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ModelError("timeout", `${label}: request timed out`);
  if (err instanceof sdk.APIUserAbortError) return new ModelError("timeout", `${label}: request aborted`);
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return new ModelError("network", `${label}: connection error${cause}`);
  }
  if (err instanceof sdk.APIError) {
    const { status, headers } = err;
    if (status === void 0) return new ModelError("network", `${label}: ${err.message}`);
    const hint = headers ? retryAfterMs((n) => headers.get(n)) : void 0;
    return errorFromStatus(status, `${label}: HTTP ${status}: ${err.message}`, hint);
  }
  return err;
}
export {
  errorFromStatus,
  isContextLengthMessage,
  mapSdkError,
  retryAfterMs
};
//# sourceMappingURL=http-error.js.map
