import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where recipes are found, first match wins: the folders given on the command line
 * (`--recipes DIR`, repeatable; `recipeDirs` in the API), then the project config's `recipe_dirs`
 * (relive.config.*, relative to that file), then the recipes shipped in the package (`recipes/`
 * beside package.json). A user recipe therefore shadows a shipped one of the same episode id or
 * world name; two recipes of one folder claiming the same episode id (for a task) or world name
 * are an error naming both files.
 */
export const SHIPPED_RECIPE_DIR = fileURLToPath(new URL("../../recipes", import.meta.url));

let projectDirs: string[] = [];

/** Set by the project config loader: its `recipe_dirs`, absolute. */
export function setProjectRecipeDirs(dirs: readonly string[]): void {
  projectDirs = [...dirs];
}

/** The recipe folders searched, in order (duplicates removed). */
export function recipeSearchPath(extra: readonly string[] = []): string[] {
  const all = [...extra.map((d) => resolve(d)), ...projectDirs, SHIPPED_RECIPE_DIR];
  return all.filter((d, i) => all.indexOf(d) === i);
}
