import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../run/config-error.js";
import { Recipe } from "./recipe-schema.js";

/** A recipe read from its file (or made from a set's file names: implicit-recipes.ts). */
export interface LoadedRecipe {
  /** the recipe file (absolute); for an implicit recipe, a description of where it came from */
  file: string;
  recipe: Recipe;
  /** the folder relative `data_dir` is resolved against (the recipe file's folder) */
  baseDir: string;
  /** made in code from file names, not read from a file */
  implicit?: boolean;
  /** the recipe as written (before validation): what recipe-build.json records, so a rebuild re-reads it */
  input: unknown;
}

/** A bad recipe: the message names the file and the field; the CLI prints it and exits 2. */
export class RecipeError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = "RecipeError";
  }
}

export const RECIPE_EXTENSIONS = [".yaml", ".yml", ".json"] as const;
const isRecipeName = (n: string) => RECIPE_EXTENSIONS.some((e) => n.endsWith(e)) && !n.startsWith(".");

const FORMAT_HINT = "(the recipe format: recipes/README.md)";

/** Validates parsed recipe content; `file` names it in the errors. */
export function parseRecipe(raw: unknown, file: string, baseDir = dirname(file)): LoadedRecipe {
  const p = Recipe.safeParse(raw);
  if (!p.success)
    throw new RecipeError(
      `recipe ${file} is invalid:\n${p.error.issues
        .map((i) => `  ${i.path.length ? i.path.join(".") : "(top level)"}: ${i.message}`)
        .join("\n")}\nfix the field(s) above ${FORMAT_HINT}`,
    );
  return { file, recipe: p.data, baseDir, input: raw };
}

/** Reads and validates a recipe file (YAML or JSON). */
export function loadRecipe(path: string): LoadedRecipe {
  const file = resolve(path);
  if (!existsSync(file)) throw new RecipeError(`recipe ${file}: no such file`);
  const text = readFileSync(file, "utf8");
  let raw: unknown;
  try {
    raw = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new RecipeError(
      `recipe ${file}: not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(e as Error).message}`,
    );
  }
  return parseRecipe(raw, file);
}

/** The recipe files directly inside `dir` (sorted by name); a missing dir is an error naming it. */
export function recipeFilesIn(dir: string): string[] {
  const d = resolve(dir);
  if (!existsSync(d) || !statSync(d).isDirectory())
    throw new RecipeError(`recipe folder ${d}: not a directory (pass an existing folder to --recipes / recipe_dirs)`);
  return readdirSync(d)
    .filter(isRecipeName)
    .sort()
    .map((n) => join(d, n));
}
