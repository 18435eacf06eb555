import { ConfigError, parseRunConfig, type RunConfig } from "../config.js";
import { type GridAxis, type GridConfig, gridAxes } from "./grid-config.js";

/** One cell of a grid: a validated run config and the axis values that made it. */
export interface GridCell {
  /** position in the deterministic expansion order, from 0 */
  index: number;
  /** `axis=value` pairs, e.g. `models=scripted:silent seeds=3` */
  label: string;
  /** axis name (as written in the grid file) → value */
  values: Record<string, unknown>;
  config: RunConfig;
}

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** `axis=value` pairs of a cell (the label shown in progress lines and tables). */
export const cellLabel = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${show(v)}`)
    .join(" ");

function setPath(target: Record<string, unknown>, path: string[], value: unknown, where: string): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined) node[key] = {};
    else if (next === null || typeof next !== "object" || Array.isArray(next))
      throw new ConfigError(`${where}: cannot set ${path.join(".")}: ${key} in the base config is not an object`);
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = structuredClone(value);
}

/**
 * The full cross product of the grid's axes over its base config, in a deterministic order
 * (see `gridAxes`; the last axis varies fastest). Each cell is validated with the run-config
 * schema; an invalid cell is a `ConfigError` that names the cell, its axis values and the field.
 * A grid without axes is one cell: the base config.
 */
export function expandGrid(grid: GridConfig, source = "grid config"): GridCell[] {
  const axes: GridAxis[] = gridAxes(grid, source);
  const total = axes.reduce((n, a) => n * a.values.length, 1);
  const cells: GridCell[] = [];
  for (let index = 0; index < total; index++) {
    // mixed-radix digits of index, last axis fastest
    const values: Record<string, unknown> = {};
    const raw = structuredClone(grid.base) as Record<string, unknown>;
    let rest = index;
    const picks: { axis: GridAxis; value: unknown }[] = [];
    for (let k = axes.length - 1; k >= 0; k--) {
      const axis = axes[k]!;
      picks.unshift({ axis, value: axis.values[rest % axis.values.length] });
      rest = Math.floor(rest / axis.values.length);
    }
    for (const { axis, value } of picks) values[axis.name] = value;
    const label = cellLabel(values);
    const where = `grid ${source}, cell ${index + 1} of ${total} (${label || "base"})`;
    for (const { axis, value } of picks) setPath(raw, axis.path, value, where);
    cells.push({ index, label, values, config: parseRunConfig(raw, where) });
  }
  return cells;
}
