import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { allTasks, registerTask } from "../tasks/registry.js";
import type { AnyTask } from "../tasks/task.js";
import { ConfigError } from "./config.js";
import { importModuleFile } from "./module-file.js";

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
  const mod = await importModuleFile(abs, "task_module");
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

/**
 * The config with `task_module` set when its task comes from a module loaded earlier (a project
 * config's `task_modules`), so config.json records the module and resume, rescore and grid workers
 * load it; a config naming its module, or a built-in task, is returned as it is.
 */
export function withTaskModule<C extends { task: string; task_module?: string | undefined }>(config: C): C {
  if (config.task_module !== undefined) return config;
  for (const [abs, tasks] of loaded)
    if (tasks.some((t) => t.id === config.task)) return { ...config, task_module: abs };
  return config;
}

/**
 * Loads the config's task module, if it names one (or its task comes from a loaded project module),
 * checks that it defines the config's task, and returns the config with `task_module` set.
 */
export async function loadConfigTaskModule<C extends { task: string; task_module?: string | undefined }>(
  config0: C,
): Promise<C> {
  const config = withTaskModule(config0);
  if (config.task_module === undefined) return config;
  const tasks = await loadTaskModule(config.task_module);
  if (!tasks.some((t) => t.id === config.task) && !allTasks().some((t) => t.id === config.task))
    throw new ConfigError(
      `task: "${config.task}" is not defined by task_module ${config.task_module} (it defines ${tasks.map((t) => t.id).join(", ")})`,
    );
  return config;
}
