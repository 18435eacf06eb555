import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isoInstant } from "../common/time.js";
import type { AnyTask, Episode } from "../tasks/task.js";
import type { WorldManifest } from "../world/types.js";
import { readWorldManifest } from "../world/world-store.js";
import { ConfigError } from "./config-error.js";

/**
 * Validity guards for a world given as a directory (`--world DIR`, config `world: {dir}`): the
 * world must carry every stream the task needs and cover the episode window, else the run is
 * refused before anything is written (issue 12 §4). A recipe episode's world is checked the same
 * way (its recipe may list a task whose streams it does not fill); synthetic worlds are complete by
 * construction.
 */

/** The stream kinds a task cannot run without: its `streams` minus its `optionalStreams`. */
export function requiredStreams(task: Pick<AnyTask, "streams" | "optionalStreams">): string[] {
  const optional = new Set(task.optionalStreams ?? []);
  return task.streams.filter((s) => !optional.has(s));
}

/** Required streams with no row in the world (absent from the manifest or counted 0). */
export function missingStreams(task: Pick<AnyTask, "streams" | "optionalStreams">, manifest: WorldManifest): string[] {
  return requiredStreams(task).filter((s) => (manifest.streams[s] ?? 0) === 0);
}

const show = (t: number) => isoInstant(t).replace(":00.000Z", "Z").replace("T00:00Z", "");

/** What part of `window` the world's window does not cover ([] when it is covered). */
export function uncoveredWindow(window: { start: number; end: number }, manifest: WorldManifest): string[] {
  const w = manifest.window;
  const out: string[] = [];
  if (window.start < w.start)
    out.push(`${show(window.start)} → ${show(Math.min(w.start, window.end))} (before the world starts)`);
  if (window.end > w.end)
    out.push(`${show(Math.max(w.end, window.start))} → ${show(window.end)} (after the world ends)`);
  return out;
}

/**
 * Refuses (ConfigError) a world directory that lacks a required stream of `task` or does not cover
 * `window` [start, end); the message names the world, the missing streams and the uncovered spans.
 */
export function checkWorldFitsTask(
  task: AnyTask,
  dir: string,
  manifest: WorldManifest,
  window: { start: number; end: number },
  /** how the message names the world (default: `world.dir DIR`) */
  label = `world.dir ${dir}`,
): void {
  const problems: string[] = [];
  const missing = missingStreams(task, manifest);
  if (missing.length)
    problems.push(
      `it has no ${missing.join(", ")} rows (task ${task.id} needs ${requiredStreams(task).join(", ")}; ` +
        `the world has ${
          Object.entries(manifest.streams)
            .filter(([, n]) => n > 0)
            .map(([k, n]) => `${k} ${n}`)
            .join(", ") || "no rows at all"
        })`,
    );
  const gaps = uncoveredWindow(window, manifest);
  if (gaps.length)
    problems.push(
      `it does not cover the episode window ${show(window.start)} → ${show(window.end)}: missing ${gaps.join(" and ")}; ` +
        `the world covers ${show(manifest.window.start)} → ${show(manifest.window.end)}`,
    );
  if (problems.length)
    throw new ConfigError(
      `${label} (world "${manifest.name}") cannot serve task ${task.id}:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
}

/**
 * With a world directory and no episode named, the world itself is the episode: its manifest name
 * and window (so results name the world, not the task's default episode). Null for a seed world, an
 * explicitly named episode, or a directory without world.json (the world resolver says what to do).
 */
export function worldDirEpisode(config: {
  world: { seed: number } | { dir: string };
  episode?: string | undefined;
}): Episode | null {
  if (!("dir" in config.world) || config.episode !== undefined) return null;
  const dir = resolve(config.world.dir);
  if (!existsSync(join(dir, "world.json"))) return null;
  let m: WorldManifest;
  try {
    m = readWorldManifest(dir);
  } catch (err) {
    throw new ConfigError(`world.dir: ${(err as Error).message}`);
  }
  return {
    name: m.name,
    sim_start: m.window.start,
    sim_end: m.window.end,
    world: { kind: "real", builder: m.builder },
    description: `the world in ${dir} (${m.builder} ${m.builder_version})`,
  };
}
