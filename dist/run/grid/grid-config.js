import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ConfigError, RunConfigSchema } from "../config.js";
const AXIS_ALIASES = {
  tasks: "task",
  episodes: "episode",
  models: "agent.model",
  triggers: "agent.trigger",
  seeds: "seed"
};
const NAMED_AXIS_ORDER = ["task", "episode", "agent.model", "agent.trigger"];
const AXIS_NAME = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;
const axisValues = z.array(z.unknown()).min(1, "an axis needs at least one value");
const GridConfigSchema = z.object({
  name: z.string().min(1).optional(),
  base: z.record(z.string(), z.unknown()),
  axes: z.record(z.string(), z.union([axisValues, z.number().int().positive()])).superRefine((axes, ctx) => {
    for (const [k, v] of Object.entries(axes)) {
      if (!AXIS_NAME.test(k))
        ctx.addIssue({ code: "custom", path: [k], message: `not an axis name or dotted run-config path: "${k}"` });
      if (typeof v === "number" && k !== "seeds" && k !== "seed")
        ctx.addIssue({ code: "custom", path: [k], message: "only `seeds` may be a count; give a list of values" });
    }
  }).default({}),
  concurrency: z.record(z.string().min(1), z.number().int().positive()).default({})
}).strict();
const RUN_CONFIG_FIELDS = Object.keys(RunConfigSchema.shape);
function parseGridConfig(raw, source = "grid config") {
  const parsed = GridConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
    throw new ConfigError(`invalid grid config in ${source}:
${lines.join("\n")}`);
  }
  gridAxes(parsed.data, source);
  return parsed.data;
}
function loadGridConfig(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read grid config ${path}: ${err.message}`);
  }
  let raw;
  try {
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError(
      `grid config ${path} is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${err.message}`
    );
  }
  return parseGridConfig(raw, path);
}
function gridAxes(grid, source = "grid config") {
  const axes = [];
  for (const [name, v] of Object.entries(grid.axes)) {
    const path = (AXIS_ALIASES[name] ?? name).split(".");
    const top = path[0];
    if (!RUN_CONFIG_FIELDS.includes(top))
      throw new ConfigError(
        `invalid grid config in ${source}:
  axes.${name}: "${top}" is not a run-config field; axes are ${Object.keys(AXIS_ALIASES).join(", ")} or a dotted path into the run config (${RUN_CONFIG_FIELDS.join(", ")})`
      );
    const values = typeof v === "number" ? Array.from({ length: v }, (_, i) => i) : v;
    const seen = /* @__PURE__ */ new Set();
    for (const value of values) {
      const key = JSON.stringify(value);
      if (seen.has(key))
        throw new ConfigError(`invalid grid config in ${source}:
  axes.${name}: value ${key} is listed twice`);
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
          `invalid grid config in ${source}:
  axes: "${a.name}" and "${b.name}" both set ${short.path.join(".")}`
        );
    }
  const rank = (a) => {
    const p = a.path.join(".");
    if (p === "seed") return NAMED_AXIS_ORDER.length + 1;
    const i = NAMED_AXIS_ORDER.indexOf(p);
    return i >= 0 ? i : NAMED_AXIS_ORDER.length;
  };
  return axes.map((a, i) => ({ a, i })).sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i).map((x) => x.a);
}
export {
  AXIS_ALIASES,
  GridConfigSchema,
  NAMED_AXIS_ORDER,
  gridAxes,
  loadGridConfig,
  parseGridConfig
};
//# sourceMappingURL=grid-config.js.map
