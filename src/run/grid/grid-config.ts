import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ConfigError, RunConfigSchema } from "../config.js";

/** Axis names that stand for a run-config field (spec/runs.md: tasks × models × triggers × seeds × episodes). */
export const AXIS_ALIASES: Record<string, string> = {
  tasks: "task",
  episodes: "episode",
  models: "agent.model",
  triggers: "agent.trigger",
  seeds: "seed",
};

/** The order of the named axes in the cross product (outermost first); dotted-path axes follow in file order, seeds last. */
export const NAMED_AXIS_ORDER = ["task", "episode", "agent.model", "agent.trigger"] as const;

const AXIS_NAME = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

const axisValues = z.array(z.unknown()).min(1, "an axis needs at least one value");

/**
 * A grid file (YAML or JSON): `base` is a run config in its input form (the schema of
 * `relive run --config`, possibly without the fields the axes set); `axes` maps an axis to its
 * values (`seeds` may also be a count N, meaning 0..N-1); `concurrency` caps the jobs of one model
 * provider running at once (providers not named are uncapped).
 */
export const GridConfigSchema = z
  .object({
    name: z.string().min(1).optional(),
    base: z.record(z.string(), z.unknown()),
    axes: z
      .record(z.string(), z.union([axisValues, z.number().int().positive()]))
      .superRefine((axes, ctx) => {
        for (const [k, v] of Object.entries(axes)) {
          if (!AXIS_NAME.test(k))
            ctx.addIssue({ code: "custom", path: [k], message: `not an axis name or dotted run-config path: "${k}"` });
          if (typeof v === "number" && k !== "seeds" && k !== "seed")
            ctx.addIssue({ code: "custom", path: [k], message: "only `seeds` may be a count; give a list of values" });
        }
      })
      .default({}),
    concurrency: z.record(z.string().min(1), z.number().int().positive()).default({}),
  })
  .strict();

export type GridConfigInput = z.input<typeof GridConfigSchema>;
export type GridConfig = z.output<typeof GridConfigSchema>;

/** One axis after normalisation: its name as written, the run-config path it sets, its values. */
export interface GridAxis {
  name: string;
  path: string[];
  values: unknown[];
}

const RUN_CONFIG_FIELDS = Object.keys(RunConfigSchema.shape);

/** Validates a grid object; the error names every bad field. */
export function parseGridConfig(raw: unknown, source = "grid config"): GridConfig {
  const parsed = GridConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
    throw new ConfigError(`invalid grid config in ${source}:\n${lines.join("\n")}`);
  }
  gridAxes(parsed.data, source); // path checks
  return parsed.data;
}

/** Reads a YAML or JSON grid file. */
export function loadGridConfig(path: string): GridConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read grid config ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError(
      `grid config ${path} is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(err as Error).message}`,
    );
  }
  return parseGridConfig(raw, path);
}

/**
 * The axes in cross-product order (outermost first): task, episode, model, trigger, then the
 * dotted-path axes in the order the file lists them, then seed (innermost, so the repetitions of
 * one configuration are neighbours). Two axes that set the same field, or a field and a field
 * inside it, are an error.
 */
export function gridAxes(grid: GridConfig, source = "grid config"): GridAxis[] {
  const axes: GridAxis[] = [];
  for (const [name, v] of Object.entries(grid.axes)) {
    const path = (AXIS_ALIASES[name] ?? name).split(".");
    const top = path[0]!;
    if (!RUN_CONFIG_FIELDS.includes(top))
      throw new ConfigError(
        `invalid grid config in ${source}:\n  axes.${name}: "${top}" is not a run-config field; axes are ${Object.keys(AXIS_ALIASES).join(", ")} or a dotted path into the run config (${RUN_CONFIG_FIELDS.join(", ")})`,
      );
    const values = typeof v === "number" ? Array.from({ length: v }, (_, i) => i) : v;
    const seen = new Set<string>();
    for (const value of values) {
      const key = JSON.stringify(value);
      if (seen.has(key))
        throw new ConfigError(`invalid grid config in ${source}:\n  axes.${name}: value ${key} is listed twice`);
      seen.add(key);
    }
    axes.push({ name, path, values });
  }
  for (const a of axes)
    for (const b of axes) {
      if (a === b) continue;
      const [short, long] = a.path.length <= b.path.length ? [a, b] : [b, a];
      if (short.path.every((p, i) => long.path[i] === p))
        throw new ConfigError(
          `invalid grid config in ${source}:\n  axes: "${a.name}" and "${b.name}" both set ${short.path.join(".")}`,
        );
    }
  const rank = (a: GridAxis) => {
    const p = a.path.join(".");
    if (p === "seed") return NAMED_AXIS_ORDER.length + 1;
    const i = (NAMED_AXIS_ORDER as readonly string[]).indexOf(p);
    return i >= 0 ? i : NAMED_AXIS_ORDER.length;
  };
  // a stable sort keeps the file order among dotted-path axes
  return axes
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i)
    .map((x) => x.a);
}
