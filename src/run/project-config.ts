import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { setProjectRecipeDirs } from "../recipes/recipe-dirs.js";
import { ConfigError } from "./config.js";
import { importModuleFile } from "./module-file.js";
import { loadTaskModule } from "./task-module.js";

/**
 * The project file a consumer keeps beside their code, as vitest and eslint users expect:
 * `relive.config.{json,yaml,yml,mjs,js,ts}` in the working directory. It lists task modules (paths
 * relative to the file) whose tasks every command then knows by id, so `relive run --task my-task`
 * works without `--task-module`; a run of such a task records the module's path and sha256 in
 * config.json exactly as `--task-module` does.
 */
export const PROJECT_CONFIG_NAMES = [
  "relive.config.json",
  "relive.config.yaml",
  "relive.config.yml",
  "relive.config.mjs",
  "relive.config.js",
  "relive.config.ts",
] as const;

const ProjectConfigSchema = z
  .object({
    /** files defining tasks with `defineTask` (.js/.mjs directly, .ts through tsx) */
    task_modules: z.array(z.string().min(1)).default([]),
    /** folders of world recipes (relative to the file) whose episodes `--episode` finds, after --recipes and before the shipped recipes/ */
    recipe_dirs: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type ProjectConfig = z.output<typeof ProjectConfigSchema>;

/** The project config file in `dir`, or null; two of them is an error (which one would win is a guess). */
export function findProjectConfig(dir: string): string | null {
  const found = PROJECT_CONFIG_NAMES.map((n) => join(dir, n)).filter((p) => existsSync(p));
  if (found.length > 1) throw new ConfigError(`${dir} has several relive config files (${found.join(", ")}): keep one`);
  return found[0] ?? null;
}

async function readProjectConfig(path: string): Promise<unknown> {
  if (/\.(json|ya?ml)$/.test(path)) {
    const text = readFileSync(path, "utf8");
    try {
      return path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      throw new ConfigError(
        `${path}: not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(err as Error).message}`,
      );
    }
  }
  return (await importModuleFile(path, "relive config")).default;
}

/**
 * Reads the project config (`file`, or the one found in `dir`), validates it and loads its task
 * modules. Returns the config (empty when there is no file) and the file it came from.
 */
export async function loadProjectConfig(
  o: { file?: string; dir?: string } = {},
): Promise<{ path: string | null; config: ProjectConfig }> {
  const path = o.file !== undefined ? resolve(o.file) : findProjectConfig(o.dir ?? process.cwd());
  if (path === null) {
    setProjectRecipeDirs([]);
    return { path: null, config: { task_modules: [], recipe_dirs: [] } };
  }
  if (!existsSync(path)) throw new ConfigError(`relive config ${path}: no such file`);
  const parsed = ProjectConfigSchema.safeParse(await readProjectConfig(path));
  if (!parsed.success)
    throw new ConfigError(
      `${path}: not a relive project config (fields: task_modules, recipe_dirs):\n${parsed.error.issues
        .map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("\n")}`,
    );
  for (const m of parsed.data.task_modules) {
    const abs = isAbsolute(m) ? m : resolve(dirname(path), m);
    try {
      await loadTaskModule(abs);
    } catch (err) {
      throw new ConfigError(`${path}: task_modules: ${(err as Error).message}`);
    }
  }
  setProjectRecipeDirs(parsed.data.recipe_dirs.map((d) => (isAbsolute(d) ? d : resolve(dirname(path), d))));
  return { path, config: parsed.data };
}
