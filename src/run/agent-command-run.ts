import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_IDLE_TIMEOUT_S, OutsideAgent } from "../mcp/external-actor.js";
import { serveMcpHttp } from "../mcp/http-server.js";
import {
  EXTERNAL_ISOLATION,
  EXTERNAL_NO_ISOLATION,
  type Isolation,
  isolationUnavailable,
  spawnAgentCommand,
} from "../mcp/isolated-child.js";
import { ConfigError, parseRunConfig, type RunConfig } from "./config.js";
import { runExternal, startMeteringProxy } from "./external-run.js";
import type { ResolvedRun } from "./resolve-run.js";
import type { RunOptions, RunOutcome } from "./runner.js";

/** Variables of relive's own environment an app may see (everything else, provider keys included, stays out). */
const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ", "TMPDIR"];

export interface AgentCommandOptions extends RunOptions {
  /** the app's command line (run by /bin/sh -c in the run's workspace) */
  command: string;
  /** `netns` (default; refused where it cannot work) or `none` (`--no-isolation`) */
  isolation: Isolation;
  idleTimeoutMs: number;
  /** wall-clock grace for the app to exit by itself once the run is over, then SIGTERM (default 10,000 ms) */
  graceMs?: number;
  /** the app's stdout/stderr: inherited (default) or collected into `onOutput` */
  onOutput?: (chunk: string) => void;
  /** relive's version, sent as the MCP server version */
  version?: string;
}

export interface AgentCommandOutcome extends RunOutcome {
  /** the app's exit status (128 + signal when it was stopped) */
  exitCode: number;
  isolation: Isolation;
}

/** What an app is given to find the run: written to `<run>/agent/` (beside the workspace, never inside it). */
function writeAppConfig(
  dir: string,
  x: { mcpUrl: string; openaiBaseURL: string; anthropicBaseURL: string; key: string; model: string; openai: boolean },
) {
  mkdirSync(join(dir, "codex"), { recursive: true });
  const mcp = { mcpServers: { relive: { type: "http", url: x.mcpUrl } } };
  writeFileSync(join(dir, "mcp.json"), `${JSON.stringify(mcp, null, 2)}\n`);
  const opencode = {
    $schema: "https://opencode.ai/config.json",
    mcp: { relive: { type: "remote", url: x.mcpUrl, enabled: true } },
    provider: x.openai
      ? {
          relive: {
            npm: "@ai-sdk/openai-compatible",
            name: "relive metering proxy",
            options: { baseURL: x.openaiBaseURL, apiKey: x.key },
            models: { [x.model]: {} },
          },
        }
      : { anthropic: { options: { baseURL: `${x.anthropicBaseURL}/v1`, apiKey: x.key } } },
    model: x.openai ? `relive/${x.model}` : `anthropic/${x.model}`,
  };
  writeFileSync(join(dir, "opencode.json"), `${JSON.stringify(opencode, null, 2)}\n`);
  const codex = [
    `model = ${JSON.stringify(x.model)}`,
    `model_provider = "relive"`,
    "",
    "[model_providers.relive]",
    `name = "relive metering proxy"`,
    `base_url = ${JSON.stringify(x.openaiBaseURL)}`,
    `env_key = "OPENAI_API_KEY"`,
    `wire_api = "responses"`,
    "",
    "[mcp_servers.relive]",
    `url = ${JSON.stringify(x.mcpUrl)}`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "codex", "config.toml"), codex);
  const gemini = { mcpServers: { relive: { httpUrl: x.mcpUrl } } };
  writeFileSync(join(dir, "gemini-settings.json"), `${JSON.stringify(gemini, null, 2)}\n`);
}

/**
 * `relive run --agent-cmd "<command>"`: an outside agent app as the run's actor. The run's MCP
 * endpoint (Streamable HTTP) and metering proxy are served on 127.0.0.1; the app is launched in the
 * run's workspace with their URLs and keys in its environment (and ready-made config files for
 * common apps in `<run>/agent/`), confined to a network namespace that reaches only those two ports
 * (`isolation: netns`), or unconfined with `isolation: none` (`--no-isolation`; ledgered and flagged
 * `external_no_isolation`). The app exiting is a closed session (treated as finish); once the run
 * is over the app gets `graceMs` to exit, then SIGTERM. Like every outside-agent run it is not
 * resumable: an interrupted one starts again from the beginning (and says so).
 */
export async function runAgentCommand(cfg: RunConfig, o: AgentCommandOptions): Promise<AgentCommandOutcome> {
  if (o.command.trim() === "") throw new ConfigError("--agent-cmd: the command is empty");
  if (o.isolation === "netns") {
    const why = isolationUnavailable(o.env ?? process.env);
    if (why !== null)
      throw new ConfigError(
        `--agent-cmd: ${why}; the app's network cannot be limited to the run's proxy and MCP endpoint. Pass --no-isolation to run it unconfined (the run is marked ${EXTERNAL_NO_ISOLATION})`,
      );
  }
  if (cfg.agent.upstream_model === undefined)
    throw new ConfigError(
      "--agent-cmd: no model for the app: pass -m provider:model (or agent.upstream_model in the config; `relive mcp --upstream-model`), the model its traffic is forwarded to and billed as",
    );
  const outside = new OutsideAgent({
    idleTimeoutMs: o.idleTimeoutMs,
    startNotes: [
      o.isolation === "netns"
        ? {
            kind: EXTERNAL_ISOLATION,
            message: `agent command in a network namespace reaching only the MCP endpoint and the metering proxy: ${o.command}`,
          }
        : {
            kind: EXTERNAL_NO_ISOLATION,
            message: `agent command run WITHOUT network isolation (--no-isolation): ${o.command}`,
          },
    ],
  });
  let resolved: ResolvedRun | null = null;
  let proxy: Awaited<ReturnType<typeof startMeteringProxy>> = null;
  const running = runExternal(cfg, {
    ...o,
    externalActor: outside.actor,
    beforeRun: async (r) => {
      resolved = r;
      proxy = await startMeteringProxy(r, outside, o.env ? { env: o.env } : {});
    },
  });
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => {});
  };
  try {
    running.catch(() => {});
    await Promise.race([outside.ready, running]);
    const r = resolved as ResolvedRun | null;
    const p = proxy as Awaited<ReturnType<typeof startMeteringProxy>>;
    if (r === null || p === null) throw new Error("internal: the outside-agent run started without its proxy");
    closers.push(() => p.close());
    const http = await serveMcpHttp(outside, { port: 0, version: o.version ?? "0.1.0" });
    closers.push(() => http.close());

    const agentDir = join(r.runDir, "agent");
    const model = p.upstream.model;
    writeAppConfig(agentDir, {
      mcpUrl: http.url,
      openaiBaseURL: p.openaiBaseURL,
      anthropicBaseURL: p.anthropicBaseURL,
      key: p.key,
      model,
      openai: p.upstream.protocol === "openai",
    });
    const env: Record<string, string> = {};
    for (const k of PASSED_ENV) {
      const v = process.env[k];
      if (v !== undefined) env[k] = v;
    }
    Object.assign(env, {
      RELIVE_MCP_URL: http.url,
      RELIVE_MCP_CONFIG: join(agentDir, "mcp.json"),
      RELIVE_AGENT_CONFIG_DIR: agentDir,
      RELIVE_MODEL: model,
      RELIVE_MODEL_PROTOCOL: p.upstream.protocol,
      RELIVE_PROXY_KEY: p.key,
      RELIVE_ISOLATION: o.isolation,
      OPENAI_BASE_URL: p.openaiBaseURL,
      OPENAI_API_KEY: p.key,
      ANTHROPIC_BASE_URL: p.anthropicBaseURL,
      ANTHROPIC_API_KEY: p.key,
      ANTHROPIC_MODEL: model,
      CODEX_HOME: join(agentDir, "codex"),
      OPENCODE_CONFIG: join(agentDir, "opencode.json"),
    });
    const socketDir = mkdtempSync(join(tmpdir(), "relive-relay-"));
    closers.push(async () => rmSync(socketDir, { recursive: true, force: true }));
    o.log?.(
      `agent command (${o.isolation === "netns" ? "network namespace: only the MCP endpoint and the proxy" : "NO isolation"}): ${o.command}`,
    );
    const child = await spawnAgentCommand({
      command: o.command,
      cwd: join(r.runDir, "workspace"),
      env,
      allowPorts: [http.port, p.port],
      isolation: o.isolation,
      socketDir,
      stdio: o.onOutput ? "pipe" : "inherit",
    });
    if (o.onOutput) {
      child.child.stdout?.on("data", (b: Buffer) => o.onOutput?.(b.toString()));
      child.child.stderr?.on("data", (b: Buffer) => o.onOutput?.(b.toString()));
    }
    closers.push(() => child.stop(2000));
    // the app exiting closes its session: treated as finish
    void child.exited.then(() => outside.close());
    let res: RunOutcome;
    try {
      res = await running;
    } catch (err) {
      outside.fail(err as Error);
      throw err;
    }
    outside.settle({ runDir: res.runDir, sim_end: Date.parse(res.results.sim_end) });
    const grace = o.graceMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const exitCode = await Promise.race([
      child.exited,
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), grace);
      }),
    ]);
    clearTimeout(timer);
    if (exitCode === null) {
      o.log?.(`the agent command did not exit within ${grace / 1000} s after the run ended: stopping it`);
      await child.stop(2000);
    }
    return { ...res, exitCode: exitCode ?? (await child.exited), isolation: o.isolation };
  } finally {
    await closeAll();
  }
}

/** `external:<name>` of an app: `--agent-name`, else the command's program name (`npx codex exec …` → codex). */
export function harnessOf(command: string, name?: string): string {
  const words = command
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const prog = words[0] === "npx" || words[0] === "env" ? words.find((w, i) => i > 0 && !w.startsWith("-")) : words[0];
  const base = (name ?? prog ?? "app").split("/").pop() ?? "app";
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64);
  return `external:${slug || "app"}`;
}

/**
 * `relive run --agent-cmd`: the run config of the flags with the agent an outside app (`agent.model:
 * external:<name>`) whose traffic goes to `-m` (`agent.upstream_model`), run under isolation unless
 * `--no-isolation`.
 */
export function agentCommandFromFlags(
  raw: Record<string, unknown>,
  flags: { agentCmd: string; agentName?: string; isolation?: boolean; idleTimeoutS?: number },
  o: RunOptions & { source: string } & Pick<AgentCommandOptions, "onOutput" | "graceMs" | "version">,
): Promise<AgentCommandOutcome> {
  const agent = { ...((raw.agent as Record<string, unknown> | undefined) ?? {}) };
  const model = typeof agent.model === "string" ? agent.model : undefined;
  if (model !== undefined && !model.startsWith("external:")) {
    if (agent.upstream_model !== undefined && agent.upstream_model !== model)
      throw new ConfigError(
        `--agent-cmd: -m ${model} and agent.upstream_model ${String(agent.upstream_model)} disagree: name the app's model once`,
      );
    agent.upstream_model = model;
  }
  agent.model = harnessOf(flags.agentCmd, flags.agentName);
  const cfg = parseRunConfig({ ...raw, agent }, o.source);
  return runAgentCommand(cfg, {
    ...o,
    command: flags.agentCmd,
    isolation: flags.isolation === false ? "none" : "netns",
    idleTimeoutMs: Math.round((flags.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S) * 1000),
  });
}
