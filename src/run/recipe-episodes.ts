import { recipeEpisodesFor } from "../recipes/recipe-catalog.js";
import type { LoadedRecipe } from "../recipes/recipe-file.js";
import { RecipeError } from "../recipes/recipe-file.js";
import type { AnyTask, Episode } from "../tasks/task.js";
import { requiredStreams } from "./world-check.js";

/**
 * The episode a recipe defines, as `task` sees it: its window (the episode's, else the world's),
 * description (the task's own, else the episode's, else the recipe's) and default params.
 */
export function recipeEpisode(r: LoadedRecipe, taskId: string): Episode {
  const e = r.recipe.episode;
  const w = e?.window ?? r.recipe.window;
  const t = e?.tasks[taskId];
  if (!e || !t || !w) throw new RecipeError(`recipe ${r.file} defines no episode for task ${taskId}`);
  return {
    name: e.id,
    sim_start: w.start,
    sim_end: w.end,
    world: { kind: "recipe", recipe: r.file, name: r.recipe.name },
    description: t.description ?? e.description ?? r.recipe.description ?? `the world of recipe ${r.file}`,
    ...(Object.keys(t.params).length ? { params: t.params } : {}),
  };
}

/**
 * A task's episodes: its own (synthetic) ones, then those of the recipes serving it on the search
 * path (`recipeDirs`, the project's `recipe_dirs`, the shipped recipes). A recipe episode with the
 * id of a task's own episode is an error naming the file.
 */
export function taskEpisodes(task: AnyTask, recipeDirs: readonly string[] = []): Episode[] {
  const own = task.episodes;
  const fromRecipes = recipeEpisodesFor(task.id, recipeDirs).map((r) => {
    const ep = recipeEpisode(r, task.id);
    if (own.some((o) => o.name === ep.name))
      throw new RecipeError(
        `recipe ${r.file}: episode.id: task ${task.id} has a built-in episode "${ep.name}": choose another id`,
      );
    return ep;
  });
  return [...own, ...fromRecipes];
}

/** Checks a recipe episode's default params against each task's schema (unknown tasks are named). */
export function checkRecipeEpisodeTasks(r: LoadedRecipe, getTask: (id: string) => AnyTask | undefined): void {
  const e = r.recipe.episode;
  if (!e) return;
  for (const [id, t] of Object.entries(e.tasks)) {
    const task = getTask(id);
    if (!task)
      throw new RecipeError(
        `recipe ${r.file}: episode.tasks.${id}: no task "${id}" (see \`relive tasks\`; a task module's tasks need its module loaded)`,
      );
    if (task.episodes.some((o) => o.name === e.id))
      throw new RecipeError(
        `recipe ${r.file}: episode.id: task ${id} has a built-in episode "${e.id}": choose another id`,
      );
    const lacking = requiredStreams(task).filter((k) => !r.recipe.streams.includes(k));
    if (lacking.length)
      throw new RecipeError(
        `recipe ${r.file}: episode.tasks.${id}: task ${id} needs the streams ${requiredStreams(task).join(", ")}; ` +
          `the recipe's streams [${r.recipe.streams.join(", ")}] lack ${lacking.join(", ")} (remove the task, or add sources that fill them)`,
      );
    const p = task.params.safeParse(t.params);
    if (!p.success)
      throw new RecipeError(
        `recipe ${r.file}: episode.tasks.${id}.params is invalid for ${id}:\n${p.error.issues
          .map((i) => `  episode.tasks.${id}.params.${i.path.join(".")}: ${i.message}`)
          .join("\n")}`,
      );
  }
}
