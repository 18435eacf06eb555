/**
 * Conformance: broken endpoints fail loudly and stay resumable. A refused key, an unknown model and a
 * closed port stop the run before it scores, naming provider, base URL, model and status; the
 * preflight catches them before a run directory exists; a failure mid-episode leaves a directory
 * that `relive resume` continues (with the recorded endpoint) once the endpoint works again.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { ProviderFailedError } from "../../../src/models/model.js";
import { parseRunConfig } from "../../../src/run/config.js";
import { resumeRun, runFromConfig } from "../../../src/run/runner.js";
import { topCommentsScript } from "../../agent/support/policy-responder.js";
import { CACHE_DIR, freshRunsDir, options, REPO, run } from "../../run/helpers.js";
import { type Brain, policyBrain } from "./brain.js";
import { closedPort } from "./servers/http.js";
import { KEY, STYLES, startStyle } from "./support.js";

const DIGEST = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-03T00:00:00Z" };
const brain = () => policyBrain(topCommentsScript(), "sleep");
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 2 } };

async function expectStopped(p: Promise<unknown>, url: string, status: RegExp) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderFailedError);
  const msg = (err as Error).message;
  expect(msg).toContain(url);
  expect(msg).toMatch(status);
  return err as ProviderFailedError;
}

describe("conformance: broken endpoints", () => {
  for (const style of STYLES) {
    it(`${style}: refused key, unknown model and a closed port stop the run naming the URL`, async () => {
      // a refused key (Ollama has no keys)
      if (style !== "ollama") {
        const s = await startStyle(style, brain());
        try {
          const runsDir = freshRunsDir();
          const keyVar = Object.keys(s.env).find((k) => k.endsWith("_API_KEY"))!;
          const cfg = parseRunConfig({
            ...DIGEST,
            agent: { model: s.model },
            ...(s.model_prices ? { model_prices: s.model_prices } : {}),
          });
          const e = await expectStopped(
            runFromConfig(cfg, { ...options(runsDir), ...fast, env: { ...s.env, [keyVar]: "sk-wrong" } }),
            s.url,
            /auth \(HTTP 401\)/,
          );
          expect(e.message).toContain(s.model);
          if (style === "llamacpp") {
            // llama.cpp answers GET /models without a key: the first model call stops the run instead
            expect(e.where).toBe("model call 0");
            expect(existsSync(join(e.runDir!, "results.json"))).toBe(false);
          } else {
            expect(e.where).toBe("preflight");
            // caught before any run directory exists
            expect(existsSync(join(runsDir, "daily-digest"))).toBe(false);
          }
        } finally {
          await s.close();
        }
      }
      // an unknown model (llama.cpp serves its loaded file whatever the name: nothing to refuse)
      if (style !== "llamacpp") {
        const s = await startStyle(style, brain(), {
          servedModel: style === "openrouter" ? "openai/gpt-4o" : "some-other-model",
        });
        try {
          const cfg = parseRunConfig({
            ...DIGEST,
            agent: { model: s.model },
            ...(s.model_prices ? { model_prices: s.model_prices } : {}),
          });
          await expectStopped(runFromConfig(cfg, { ...options(), ...fast, env: s.env }), s.url, /not_found/);
        } finally {
          await s.close();
        }
      }
      // a closed port: unreachable after retries
      const gone = await closedPort();
      const s = await startStyle(style, brain());
      await s.close();
      // the same variables, pointing at a port nothing listens on
      const env: NodeJS.ProcessEnv = {};
      for (const [k, v] of Object.entries(s.env)) env[k] = v?.replaceAll(new URL(s.url).host, new URL(gone).host);
      const cfg = parseRunConfig({
        ...DIGEST,
        agent: { model: s.model },
        ...(s.model_prices ? { model_prices: s.model_prices } : {}),
      });
      await expectStopped(runFromConfig(cfg, { ...options(), ...fast, env }), gone, /network/);
    }, 900_000);
  }

  it("a key revoked mid-episode stops the run unscored; resume with the recorded endpoint finishes it like an uninterrupted run", async () => {
    const ref = await run({ ...DIGEST, agent: { model: "scripted:top-comments" } });
    const inner = brain();
    let calls = 0;
    let revoke = () => {};
    const revoking: Brain = (conv, i) => {
      if (++calls === 6) revoke();
      return inner(conv, i);
    };
    const s = await startStyle("vllm", revoking);
    revoke = () => s.setKey("revoked");
    try {
      const runsDir = freshRunsDir();
      const cfg = parseRunConfig({ ...DIGEST, agent: { model: s.model }, model_prices: s.model_prices });
      const e = await expectStopped(
        runFromConfig(cfg, { ...options(runsDir), ...fast, env: s.env }),
        s.url,
        /HTTP 401/,
      );
      expect(e.where).toMatch(/^model call \d+$/);
      const runDir = e.runDir!;
      expect(existsSync(join(runDir, "results.json"))).toBe(false);
      expect(readLedger(join(runDir, "ledger.jsonl")).at(-1)).toMatchObject({ type: "note", kind: "provider_failed" });
      // a re-run of the same config is not "already finished": the directory waits for resume
      await expect(runFromConfig(cfg, { ...options(runsDir), ...fast, env: s.env })).rejects.toThrow(/relive resume/);
      // fixed: resume (the environment now points elsewhere: the recorded endpoint is used)
      s.setKey(KEY);
      const res = await resumeRun(runDir, {
        ...options(runsDir),
        ...fast,
        env: { ...s.env, VLLM_BASE_URL: "http://127.0.0.1:9/v1" },
      });
      expect(res.results.flags.provider_failed).toBe(false);
      expect(res.results.performance).toEqual(ref.results.performance);
      expect(res.results.outcomes).toEqual(ref.results.outcomes);
      const ev = readLedger(join(runDir, "ledger.jsonl"));
      expect(ev.some((x) => x.type === "note" && x.kind === "provider_failed")).toBe(false);
      expect(readFileSync(join(runDir, "provider-failures.jsonl"), "utf8")).toContain('"provider_failed"');
      // a different endpoint is a different run
      const other = await startStyle("vllm", brain());
      try {
        const moved = await runFromConfig(cfg, { ...options(runsDir), ...fast, env: other.env });
        expect(moved.cached).toBe(false);
        expect(moved.runDir).not.toBe(runDir);
      } finally {
        await other.close();
      }
    } finally {
      await s.close();
    }
  }, 900_000);

  it("anthropic: a model the preflight cannot check stops at the first call; resume continues once it is served", async () => {
    const s = await startStyle("anthropic", brain(), { servedModel: "claude-other" });
    try {
      const runsDir = freshRunsDir();
      const cfg = parseRunConfig({ ...DIGEST, agent: { model: s.model } });
      const e = await expectStopped(
        runFromConfig(cfg, { ...options(runsDir), ...fast, env: s.env }),
        s.url,
        /not_found \(HTTP 404\)/,
      );
      expect(e.where).toBe("model call 0");
      expect(existsSync(join(e.runDir!, "results.json"))).toBe(false);
      s.serve?.("claude-haiku-4-5");
      const res = await resumeRun(e.runDir!, { ...options(runsDir), ...fast, env: s.env });
      const ref = await run({ ...DIGEST, agent: { model: "scripted:top-comments" } });
      expect(res.results.performance).toEqual(ref.results.performance);
      expect(res.results.flags.provider_failed).toBe(false);
    } finally {
      await s.close();
    }
  }, 900_000);

  it("the CLI (a child process) exits non-zero naming the URL when the endpoint is unreachable", async () => {
    const gone = await closedPort();
    const dir = mkdtempSync(join(tmpdir(), "relive-cli-"));
    const out = spawnSync(
      process.execPath,
      [
        join(REPO, "bin/relive.js"),
        "run",
        "--task",
        "daily-digest",
        // the 7-day episode: the world is resolved before the preflight fails, and the default 28-day
        // one would be generated for this one check
        "--episode",
        "synth-7d",
        "--model",
        "vllm:conf-model",
        "--runs",
        join(dir, "runs"),
        "--cache",
        CACHE_DIR,
        "-q",
      ],
      { encoding: "utf8", cwd: REPO, env: { ...process.env, VLLM_BASE_URL: `${gone}/v1` } },
    );
    expect(out.status).toBe(3);
    expect(out.stderr).toContain(`${gone}/v1`);
    expect(out.stderr).toMatch(/provider failure \(preflight\): vllm:conf-model at/);
    expect(existsSync(join(dir, "runs")) ? readdirSync(join(dir, "runs")) : []).toEqual([]);
  }, 900_000);
});
