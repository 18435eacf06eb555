import { ConfigError, parseRunConfig } from "../config.js";
import { gridAxes } from "./grid-config.js";
const show = (v) => typeof v === "string" ? v : JSON.stringify(v);
const cellLabel = (values) => Object.entries(values).map(([k, v]) => `${k}=${show(v)}`).join(" ");
function setPath(target, path, value, where) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === void 0) node[key] = {};
    else if (next === null || typeof next !== "object" || Array.isArray(next))
      throw new ConfigError(`${where}: cannot set ${path.join(".")}: ${key} in the base config is not an object`);
    node = node[key];
  }
  node[path[path.length - 1]] = structuredClone(value);
}
function expandGrid(grid, source = "grid config") {
  const axes = gridAxes(grid, source);
  const total = axes.reduce((n, a) => n * a.values.length, 1);
  const cells = [];
  for (let index = 0; index < total; index++) {
    const values = {};
    const raw = structuredClone(grid.base);
    let rest = index;
    const picks = [];
    for (let k = axes.length - 1; k >= 0; k--) {
      const axis = axes[k];
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
export {
  cellLabel,
  expandGrid
};
//# sourceMappingURL=expand-grid.js.map
