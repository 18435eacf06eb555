import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { allTasks, registerTask } from "../tasks/registry.js";
import type { AnyTask } from "../tasks/task.js";
import { ConfigError } from "./config.js";

/** A task module as config.json records it: resume, rescore and grid workers load the same file. */
export interface TaskModuleIdentity {
  path: string;
  sha256: string;
}

/** The absolute path and content hash of a task module file (refused when missing). */
export function taskModuleIdentity(path: string): TaskModuleIdentity {
  const abs = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(abs)) throw new ConfigError(`task_module: no such file ${abs}`);
  return { path: abs, sha256: createHash("sha256").update(readFileSync(abs)).digest("hex") };
}

const isTask = (v: unknown): v is AnyTask =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as AnyTask).id === "string" &&
  typeof (v as AnyTask).open === "function" &&
  typeof (v as AnyTask).createScorer === "function";

let tsxRegistered = false;
const loaded = new Map<string, AnyTask[]>();

/**
 * Loads a task module (`defineTask` results exported by name or as the default export, alone or in
 * an array) and registers its tasks. `.js`/`.mjs` files load directly; `.ts`/`.mts` files through
 * tsx, registered on first use. Loading the same file twice is a no-op.
 */
export async function loadTaskModule(path: string): Promise<AnyTask[]> {
  const { path: abs } = taskModuleIdentity(path);
  const done = loaded.get(abs);
  if (done) return done;
  if (/\.(c|m)?ts$/.test(abs) && !tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`task_module: ${abs} failed to load: ${(err as Error).message}`);
  }
  const tasks = Object.values(mod)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter(isTask);
  if (tasks.length === 0)
    throw new ConfigError(
      `task_module: ${abs} exports no task (export the result of defineTask, by name or as default)`,
    );
  for (const t of new Set(tasks)) {
    try {
      registerTask(t);
    } catch (err) {
      throw new ConfigError(`task_module: ${abs}: ${(err as Error).message}`);
    }
  }
  loaded.set(abs, tasks);
  return tasks;
}

/** Loads the config's task module, if it names one, and checks that it defines the config's task. */
export async function loadConfigTaskModule(config: { task: string; task_module?: string | undefined }): Promise<void> {
  if (config.task_module === undefined) return;
  const tasks = await loadTaskModule(config.task_module);
  if (!tasks.some((t) => t.id === config.task) && !allTasks().some((t) => t.id === config.task))
    throw new ConfigError(
      `task: "${config.task}" is not defined by task_module ${config.task_module} (it defines ${tasks.map((t) => t.id).join(", ")})`,
    );
}
