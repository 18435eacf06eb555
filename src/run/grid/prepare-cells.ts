import { basename } from "node:path";
import { ConfigError } from "../config.js";
import { prepareRunWorld } from "../prepare-run-world.js";
import { defaultPolicy, type ResolveOptions, resolveRun, splitModel } from "../resolve-run.js";
import { withTaskModule } from "../task-module.js";
import type { WorldLocation } from "../world-resolver.js";
import type { GridCell } from "./expand-grid.js";

/** A cell resolved against the task registry and its world: it knows its run directory. */
export interface PreparedCell extends GridCell {
  /** `<run-id>-s<seed>`: the run directory's name, and the cell's queue job id */
  id: string;
  runId: string;
  runDir: string;
  /** `provider:model` or `scripted:<policy>` */
  model: string;
  /** the model provider (`scripted`, `cassette`, `openai`, …): the key of the concurrency caps */
  provider: string;
}

export const providerOf = (model: string) => splitModel(model)[0];

/**
 * Resolves every cell (building the worlds they need once, here, before any worker starts, so
 * workers never race to build the same world) and checks that no two cells share a run directory.
 * `checkModel: false` skips opening LLM providers (status views need no API key).
 */
export async function prepareGridCells(cells: GridCell[], o: WorldLocation & ResolveOptions): Promise<PreparedCell[]> {
  const byDir = new Map<string, PreparedCell>();
  const out: PreparedCell[] = [];
  for (const given of cells) {
    // a task from a project config's module: the cell records the module, so workers load it too
    const cell = { ...given, config: withTaskModule(given.config) };
    let r: ReturnType<typeof resolveRun>;
    try {
      await prepareRunWorld(cell.config, o);
      r = resolveRun(cell.config, o);
    } catch (err) {
      const e = err as Error;
      const msg = `cell ${cell.index + 1} (${cell.label || "base"}): ${e.message}`;
      throw e instanceof ConfigError ? new ConfigError(msg) : new Error(msg, { cause: e });
    }
    const model = cell.config.agent.model ?? `scripted:${defaultPolicy(r.task).name}`;
    const prepared: PreparedCell = {
      ...cell,
      id: basename(r.runDir),
      runId: r.runId,
      runDir: r.runDir,
      model,
      provider: providerOf(model),
    };
    const twin = byDir.get(r.runDir);
    if (twin)
      throw new ConfigError(
        `cells ${twin.index + 1} (${twin.label}) and ${cell.index + 1} (${cell.label}) resolve to the same run (${r.runDir}): an axis value changes nothing in the resolved config`,
      );
    byDir.set(r.runDir, prepared);
    out.push(prepared);
  }
  return out;
}
