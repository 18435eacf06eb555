import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { isolationUnavailable } from "../../src/mcp/isolated-child.js";
import { agentCommandFromFlags, harnessOf } from "../../src/run/agent-command-run.js";
import { parseRunConfig } from "../../src/run/config.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { runFromConfig } from "../../src/run/runner.js";
import { options, REPO } from "../run/helpers.js";
import { IMITATION_KEY, type ProviderImitation, startProviderImitation } from "./provider-imitation.js";
import { DIGEST_3D } from "./support.js";

const APP = join(REPO, "test/mcp/fixtures/outside-app.mjs");
const ISOLATION = isolationUnavailable();

let provider: ProviderImitation;
let forbidden: { url: string; hits: number; close: () => void };
beforeAll(async () => {
  provider = await startProviderImitation();
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end("you should not be here");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  forbidden = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get hits() {
      return hits;
    },
    close: () => server.close(),
  };
});
afterAll(async () => {
  forbidden.close();
  await provider.close();
});

const env = () => ({ ...process.env, OPENAI_BASE_URL: `${provider.url}/v1`, OPENAI_API_KEY: IMITATION_KEY });

async function runApp(isolation: boolean) {
  const before = forbidden.hits;
  const runs = mkdtempSync(join(tmpdir(), "relive-agent-cmd-"));
  let output = "";
  const out = await agentCommandFromFlags(
    { ...DIGEST_3D, agent: { model: "openai:gpt-4.1-mini" } },
    {
      agentCmd: `FORBIDDEN_URL=${forbidden.url} HOST_PID=${process.pid} node ${APP}`,
      agentName: "test-app",
      isolation,
    },
    {
      ...options(runs),
      env: env(),
      source: "test",
      // the app's output is collected (shown when the run fails)
      onOutput: (c) => {
        output += c;
      },
    },
  ).catch((err) => {
    throw new Error(`${(err as Error).message}\n--- app output ---\n${output}`);
  });
  const probe = JSON.parse(readFileSync(join(out.runDir, "workspace", "probe.json"), "utf8"));
  return { out, probe, hits: forbidden.hits - before, events: readLedger(join(out.runDir, "ledger.jsonl")) };
}

describe("relive run --agent-cmd (an outside app as the actor)", () => {
  it("names the harness after the app", () => {
    expect(harnessOf("codex exec --full-auto 'go'")).toBe("external:codex");
    expect(harnessOf("FOO=1 npx -y opencode-ai run x")).toBe("external:opencode-ai");
    expect(harnessOf("/usr/local/bin/claude -p hi")).toBe("external:claude");
    expect(harnessOf("node app.mjs", "My App")).toBe("external:my-app");
  });

  it.skipIf(ISOLATION !== null)(
    "isolated: the app plays the episode through MCP and the proxy, reaches no other loopback port, cannot re-enter the host namespace",
    async () => {
      const { out, probe, hits, events } = await runApp(true);
      expect(hits).toBe(0);
      expect(probe.forbidden).toBe("failed: ECONNREFUSED");
      expect(probe.nsenter.status).not.toBe(0);
      expect(probe.nsenter.stderr).toMatch(/Permission denied|Operation not permitted/);
      // the app's environment: relive's URLs and keys, never the provider's key
      expect(probe.env_keys).toEqual(
        expect.arrayContaining(["OPENAI_BASE_URL", "RELIVE_MCP_URL", "ANTHROPIC_BASE_URL"]),
      );
      expect(JSON.stringify(probe)).not.toContain(IMITATION_KEY);
      expect(probe.cwd).toBe(join(out.runDir, "workspace"));
      expect(probe.digest_error).toBeUndefined();
      expect(probe.model_replies).toEqual(["ok", "ok", "ok"]);
      expect(out.exitCode).toBe(0);
      expect(out.results.harness).toBe("external:test-app");
      expect(out.results.upstream_model).toBe("openai:gpt-4.1-mini");
      expect(out.results.flags.external_no_isolation).toBe(false);
      expect(events.filter((e) => e.type === "note" && e.kind === "external_isolation")).toHaveLength(1);
      // the model traffic was metered: three calls at the imitation's default 10 in / 5 out tokens
      const llm = events.filter((e) => e.type === "llm_call");
      expect(llm.map((e) => e.type === "llm_call" && e.cost_usd)).toEqual(
        [1, 2, 3].map(() => (10 * 0.4 + 5 * 1.6) / 1e6),
      );
      // the same commitments and outcomes as relive's scripted top-comments policy on the same config
      const ref = await runFromConfig(
        parseRunConfig({ ...DIGEST_3D, agent: { model: "scripted:top-comments" } }),
        options(),
      );
      const commits = (es: typeof events) =>
        es.flatMap((e) => (e.type === "commitment" ? [[e.t, e.tool, JSON.stringify(e.args)]] : []));
      expect(commits(events)).toEqual(commits(readLedger(join(ref.runDir, "ledger.jsonl"))));
      expect(out.results.outcomes).toEqual(ref.results.outcomes);
      expect(out.results.performance.primary).toEqual(ref.results.performance.primary);
    },
    900_000,
  );

  it("--no-isolation: the same app reaches the forbidden server (the probe can fail) and the run is marked", async () => {
    const { out, probe, hits, events } = await runApp(false);
    expect(hits).toBe(1);
    expect(probe.forbidden).toBe("reached (HTTP 200)");
    expect(out.results.flags.external_no_isolation).toBe(true);
    expect(events.filter((e) => e.type === "note" && e.kind === "external_no_isolation")).toHaveLength(1);
  }, 900_000);

  it("where namespaces cannot work the run is refused, naming --no-isolation, before anything is created", async () => {
    const runs = mkdtempSync(join(tmpdir(), "relive-agent-cmd-"));
    const err = await agentCommandFromFlags(
      { ...DIGEST_3D, agent: { model: "openai:gpt-4.1-mini" } },
      { agentCmd: `node ${APP}` },
      { ...options(runs), env: { ...env(), PATH: "/nonexistent" }, source: "test" },
    ).catch((e) => e as Error);
    expect((err as Error).message).toMatch(/`unshare`.*not on PATH.*--no-isolation/);
    expect(readdirSync(runs)).toEqual([]);
  });

  it("refuses an app without an upstream model", async () => {
    const err = await agentCommandFromFlags(
      { ...DIGEST_3D },
      { agentCmd: `node ${APP}`, isolation: false },
      { ...options(), env: env(), source: "test" },
    ).catch((e) => e as Error);
    expect((err as Error).message).toMatch(/no model for the app: pass -m provider:model/);
    expect(existsSync(APP)).toBe(true);
  });

  it("config errors name the field: a bad harness name, an unpriced or non-model upstream, an upstream on a relive agent", () => {
    const bad = (agent: Record<string, unknown>) => {
      try {
        resolveRun(parseRunConfig({ ...DIGEST_3D, agent }), options());
        return "accepted";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(bad({ model: "external:Bad Name" })).toMatch(
      /^agent\.model: outside-agent harness "external:Bad Name" must be external:<name>/,
    );
    expect(bad({ model: "external:x", upstream_model: "openai:not-priced" })).toMatch(
      /^agent\.upstream_model: model "openai:not-priced" is not in the price table/,
    );
    expect(bad({ model: "external:x", upstream_model: "scripted:top-comments" })).toMatch(
      /^agent\.upstream_model: "scripted:top-comments" must be provider:model with an OpenAI-compatible provider or anthropic/,
    );
    expect(bad({ model: "scripted:top-comments", upstream_model: "openai:gpt-4.1-mini" })).toMatch(
      /^agent\.upstream_model: only outside agents/,
    );
  });
});
