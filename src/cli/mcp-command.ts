import { resolve } from "node:path";
import type { Command } from "commander";
import pc from "picocolors";
import { ConfigError } from "../run/config-error.js";
import { nonNegativeInt as int, positive as pos, withEpisodeFlags } from "./arg-parsers.js";

interface McpFlags {
  config?: string;
  task?: string;
  taskModule?: string;
  episode?: string;
  param?: string[];
  feedback?: string;
  seed?: number;
  worldSeed?: number;
  world?: string;
  recipes?: string[];
  budget?: number;
  http?: boolean;
  port: number;
  upstreamModel?: string;
  proxyPort: number;
  idleTimeoutS: number;
  runs: string;
  cache: string;
  raw?: string;
  quiet?: boolean;
}

/** The run config of `relive mcp` flags (the `relive run` flags that apply; the agent is always external:mcp). */
function configOf(o: McpFlags, base: Record<string, unknown>, agentModel: string): Record<string, unknown> {
  const baseAgent = (base.agent as Record<string, unknown> | undefined) ?? {};
  if (baseAgent.model !== undefined && baseAgent.model !== agentModel)
    throw new ConfigError(`agent.model: relive mcp runs an outside agent (${agentModel}); drop "${baseAgent.model}"`);
  return {
    ...withEpisodeFlags(base, o),
    agent: { ...baseAgent, model: agentModel, ...(o.upstreamModel ? { upstream_model: o.upstreamModel } : {}) },
  };
}

/** `relive mcp`: one run whose actor is an outside agent app, served over MCP (stdio, or Streamable HTTP). */
export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "start a run whose actor is an outside agent app and serve its tools over MCP (stdio; --http for Streamable " +
        "HTTP on 127.0.0.1). Simulated time moves only when the agent calls sleep (or the task's next_day); " +
        "finish or closing the session ends its participation; results.json is written when the episode ends",
    )
    .option("-c, --config <file>", "run config (YAML or JSON); flags below override its fields")
    .option("-t, --task <id>", "task id (see `relive tasks`)")
    .option("--task-module <file>", "a file defining the task with defineTask")
    .option("-e, --episode <name>", "episode name (default: the task's default episode)")
    .option(
      "-p, --param <key=value>",
      "a task parameter (repeatable; JSON values parsed)",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option("--feedback <condition>", "none (blind, default) | oracle | self")
    .option("--seed <n>", "repetition label (each seed is its own run directory)", int)
    .option("--world-seed <n>", "seed of the synthetic world", int)
    .option("--world <dir>", "a built world directory instead of the synthetic world")
    .option("--budget <usd>", "budget in USD (default: the task's)", pos)
    .option("--http", "serve Streamable HTTP on 127.0.0.1 instead of stdio")
    .option("--port <n>", "HTTP port (0: any free port; the URL is printed on stderr)", int, 0)
    .option(
      "--idle-timeout-s <s>",
      "wall-clock seconds without an MCP request before the run is ended (flag external_idle_timeout)",
      pos,
      600,
    )
    .option(
      "--upstream-model <provider:model>",
      "also serve a metering model proxy on 127.0.0.1 that forwards to this model (billed to the run; URLs and key printed on stderr)",
    )
    .option("--proxy-port <n>", "metering proxy port (0: any free port)", int, 0)
    .option("--runs <dir>", "runs directory", process.env.RELIVE_RUNS_DIR ?? "runs")
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option(
      "--raw <dir>",
      "data root of world recipes without data_dir (default $RELIVE_RAW_DIR or ../shared/data/raw)",
    )
    .option(
      "--recipes <dir>",
      "a folder of world recipes whose episodes --episode finds (repeatable)",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option("-q, --quiet", "no per-day progress lines")
    .action(async (o: McpFlags) => {
      // stdout is the MCP channel under stdio: everything human goes to stderr
      const say = (m: string) => process.stderr.write(`${m}\n`);
      const [
        { loadRunConfig, parseRunConfig },
        { EXTERNAL_MCP },
        { runExternal, startMeteringProxy },
        { OutsideAgent },
        { progressLine, scoreTable },
      ] = await Promise.all([
        import("../run/config.js"),
        import("../run/resolve-run.js"),
        import("../run/external-run.js"),
        import("../mcp/external-actor.js"),
        import("./format.js"),
      ]);
      const base: Record<string, unknown> = o.config ? { ...loadRunConfig(o.config) } : {};
      const raw = configOf(o, base, EXTERNAL_MCP);
      if (!raw.task) throw new ConfigError("no task: pass --task <id> or a config with `task:` (see `relive tasks`)");
      const cfg = parseRunConfig(raw, o.config ?? "command-line flags");
      const idleTimeoutMs = Math.round(o.idleTimeoutS * 1000);
      const outside = new OutsideAgent({ idleTimeoutMs });
      let closeProxy = async () => {};
      const version = "0.1.0";
      const running = runExternal(cfg, {
        runsDir: resolve(o.runs),
        cacheDir: resolve(o.cache),
        ...(o.raw ? { rawDir: resolve(o.raw) } : {}),
        ...(o.recipes ? { recipeDirs: o.recipes.map((d) => resolve(d)) } : {}),
        log: (m) => say(pc.dim(m)),
        ...(o.quiet ? {} : { onProgress: (p) => say(progressLine(p)) }),
        externalActor: outside.actor,
        beforeRun: async (r) => {
          const proxy = await startMeteringProxy(r, outside, { port: o.proxyPort });
          if (proxy === null) return;
          closeProxy = () => proxy.close();
          say(
            `relive mcp: metering proxy for ${proxy.upstream.priceKey}: OPENAI_BASE_URL=${proxy.openaiBaseURL} ` +
              `ANTHROPIC_BASE_URL=${proxy.anthropicBaseURL} key=${proxy.key} (model calls are billed to the run)`,
          );
        },
      });
      const finished = running.then(
        (res) => {
          outside.settle({ runDir: res.runDir, sim_end: Date.parse(res.results.sim_end) });
          say(scoreTable(res.results, res.runDir));
          return res;
        },
        (err: unknown) => {
          outside.fail(err as Error);
          throw err;
        },
      );
      // a configuration error surfaces before anything is served
      await Promise.race([outside.ready, finished]);

      if (o.http) {
        const { serveMcpHttp } = await import("../mcp/http-server.js");
        const http = await serveMcpHttp(outside, { port: o.port, version });
        say(`relive mcp: Streamable HTTP at ${http.url}`);
        await finished.catch(async (err) => {
          await http.close();
          await closeProxy();
          throw err;
        });
        // keep answering (free rejections) until the client has been quiet for the idle timeout
        for (;;) {
          const quiet = Date.now() - http.lastRequestAt();
          if (quiet >= idleTimeoutMs) break;
          await new Promise((r) => setTimeout(r, idleTimeoutMs - quiet));
        }
        await http.close();
        await closeProxy();
        return;
      }
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import("@modelcontextprotocol/sdk/server/stdio.js"),
        import("../mcp/mcp-server.js"),
      ]);
      const server = createMcpServer(outside, version);
      const stdinClosed = new Promise<void>((r) => {
        process.stdin.once("end", r);
        process.stdin.once("close", r);
      });
      // clients stop a server by closing stdin, then SIGTERM a moment later: let the run settle and write results first
      const settling = () => say("relive mcp: the session closed; writing the run's results before exiting");
      void stdinClosed.then(() => {
        outside.close();
        if (!outside.isSettled()) process.on("SIGTERM", settling);
      });
      await server.connect(new StdioServerTransport());
      await finished
        .finally(() => process.off("SIGTERM", settling))
        .catch(async (err) => {
          await closeProxy();
          throw err;
        });
      // after the run, keep answering (free rejections) until the client closes the session
      await stdinClosed;
      await server.close();
      await closeProxy();
    });
}
