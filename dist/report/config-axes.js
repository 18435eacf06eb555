const NON_AXIS_PATHS = /* @__PURE__ */ new Set([
  "task",
  "episode",
  "sim_start",
  "sim_end",
  "seed",
  "agent.model",
  "agent.trigger"
]);
const UNSET = "unset";
const isPlainObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const canonical = (v) => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v).sort().filter((k) => v[k] !== void 0).map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
};
function flatten(v, prefix, out) {
  if (isPlainObject(v) && Object.keys(v).length > 0) {
    for (const k of Object.keys(v).sort()) if (v[k] !== void 0) flatten(v[k], prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out[prefix] = canonical(v);
}
function configPaths(run) {
  const { config, resolved } = run.config;
  const source = {
    ...config,
    budget_usd: resolved.budget_usd,
    task_params: resolved.task_params
  };
  const out = {};
  flatten(source, "", out);
  for (const p of NON_AXIS_PATHS) delete out[p];
  return out;
}
function displayAxisValue(v) {
  if (v === UNSET) return "unset";
  if (v.startsWith('"')) return JSON.parse(v);
  return v;
}
function compareAxisValues(x, y) {
  const nx = Number(x);
  const ny = Number(y);
  const numX = x !== "" && Number.isFinite(nx);
  const numY = y !== "" && Number.isFinite(ny);
  if (numX && numY) return nx - ny;
  if (numX !== numY) return numX ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
function varyingAxes(paths) {
  const all = new Set(paths.flatMap((p) => Object.keys(p)));
  const axes = [];
  for (const path of [...all].sort()) {
    const values = new Set(paths.map((p) => p[path] ?? UNSET));
    if (values.size > 1) axes.push({ path, values: [...values].sort(compareAxisValues) });
  }
  return axes;
}
function shortAxisNames(paths) {
  const last = (p) => p.slice(p.lastIndexOf(".") + 1);
  return new Map(paths.map((p) => [p, paths.filter((q) => last(q) === last(p)).length > 1 ? p : last(p)]));
}
export {
  NON_AXIS_PATHS,
  UNSET,
  compareAxisValues,
  configPaths,
  displayAxisValue,
  shortAxisNames,
  varyingAxes
};
//# sourceMappingURL=config-axes.js.map
