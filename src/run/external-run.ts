import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import type { ExternalActorFactory } from "../mcp/external-actor.js";
import { ConfigError, type RunConfig } from "./config.js";
import { EXTERNAL_MCP, resolveRun } from "./resolve-run.js";
import { executeRun, type RunOptions, type RunOutcome } from "./runner.js";
import { loadConfigTaskModule } from "./task-module.js";

/**
 * An outside-agent run (`relive mcp`): resolved like `relive run` with `agent.model: external:mcp`,
 * in a new run directory, its one actor built by `externalActor`. An outside app is not
 * deterministic, so its runs are not resumable: a directory left by an interrupted one is removed
 * and the run starts from the beginning (logged); a finished one is refused (use another `--seed`).
 */
export async function runExternal(
  given: RunConfig,
  o: RunOptions & { externalActor: ExternalActorFactory },
): Promise<RunOutcome> {
  if (given.agent.model !== EXTERNAL_MCP)
    throw new ConfigError(
      `agent.model: an outside-agent run has agent.model "${EXTERNAL_MCP}", not "${given.agent.model}"`,
    );
  const cfg = await loadConfigTaskModule(given);
  const r = resolveRun(cfg, o);
  if (existsSync(join(r.runDir, "results.json")))
    throw new ConfigError(
      `run directory ${r.runDir} already holds a finished run of this config: pass another --seed (a repetition label) or delete it`,
    );
  if (existsSync(r.runDir)) {
    o.log?.(`${r.runDir}: an interrupted outside-agent run (not resumable): starting it again from the beginning`);
    rmSync(r.runDir, { recursive: true, force: true });
  }
  mkdirSync(join(r.runDir, "workspace"), { recursive: true });
  try {
    const cfgPath = join(r.runDir, "config.json");
    writeFileSync(`${cfgPath}.tmp`, `${JSON.stringify(r.resolvedConfig, null, 2)}\n`);
    renameSync(`${cfgPath}.tmp`, cfgPath);
    LedgerWriter.create(join(r.runDir, "ledger.jsonl")).close();
  } catch (err) {
    rmSync(r.runDir, { recursive: true, force: true });
    throw err;
  }
  o.log?.(`outside-agent run ${r.runId}: ${r.runDir}`);
  return { runDir: r.runDir, results: await executeRun(r, [], o), cached: false };
}
