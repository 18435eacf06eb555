import { parseRunConfig, type RunConfigInput } from "../../../src/run/config.js";
import { type RunOptions, runFromConfig } from "../../../src/run/runner.js";
import { options } from "../../run/helpers.js";
import { type OpenAITestServer, startOpenAITestServer } from "../../support/openai-test-server.js";

export const TEST_MODEL = "openai:gpt-4.1-mini";

/**
 * Run options that point the OpenAI provider at a loopback test server, with fast retries. The
 * client timeout is generous (a loopback server never times out in tests, however busy the
 * machine): a test of the timeout path sets its own `modelTimeoutMs`.
 */
export function llmOptions(server: OpenAITestServer, runsDir?: string): RunOptions {
  return {
    ...options(runsDir),
    env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key" },
    modelTimeoutMs: 600_000,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  };
}

/** Starts a server, runs `cfg` (model defaults to TEST_MODEL) with `respond` answering, closes the server. */
export async function runWithServer(
  cfg: RunConfigInput,
  respond: Parameters<OpenAITestServer["respond"]>[0],
  extra: Partial<RunOptions> = {},
) {
  const server = await startOpenAITestServer();
  server.respond(respond);
  try {
    const agent = { model: TEST_MODEL, ...(cfg.agent ?? {}) };
    const out = await runFromConfig(parseRunConfig({ ...cfg, agent }), { ...llmOptions(server), ...extra });
    return { ...out, requests: server.requests };
  } finally {
    await server.close();
  }
}
