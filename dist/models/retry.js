import { ModelError } from "./model.js";
const defaultSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function retryDelayMs(attempt, error, o = {}) {
  const base = o.baseDelayMs ?? 1e3;
  const max = o.maxDelayMs ?? 6e4;
  const backoff = base * 2 ** (attempt - 1);
  return Math.min(max, error.retryAfterMs ?? backoff);
}
async function generateWithRetries(model, req, ctx, o) {
  const maxAttempts = o.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be \u2265 1, got ${maxAttempts}`);
  const sleep = o.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    let response;
    try {
      response = await model.generate(req, ctx);
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      o.onAttempt({ attempt, ok: false, error: err });
      if (!err.retryable || attempt >= maxAttempts) throw err;
      await sleep(retryDelayMs(attempt, err, o));
      continue;
    }
    o.onAttempt({ attempt, ok: true, response });
    return response;
  }
}
export {
  generateWithRetries,
  retryDelayMs
};
//# sourceMappingURL=retry.js.map
