import { basename } from "node:path";
import { ConfigError } from "../config.js";
import { defaultPolicy, resolveRun, splitModel } from "../resolve-run.js";
const providerOf = (model) => splitModel(model)[0];
function prepareGridCells(cells, o) {
  const byDir = /* @__PURE__ */ new Map();
  const out = [];
  for (const cell of cells) {
    let r;
    try {
      r = resolveRun(cell.config, o);
    } catch (err) {
      const e = err;
      const msg = `cell ${cell.index + 1} (${cell.label || "base"}): ${e.message}`;
      throw e instanceof ConfigError ? new ConfigError(msg) : new Error(msg, { cause: e });
    }
    const model = cell.config.agent.model ?? `scripted:${defaultPolicy(r.task).name}`;
    const prepared = {
      ...cell,
      id: basename(r.runDir),
      runId: r.runId,
      runDir: r.runDir,
      model,
      provider: providerOf(model)
    };
    const twin = byDir.get(r.runDir);
    if (twin)
      throw new ConfigError(
        `cells ${twin.index + 1} (${twin.label}) and ${cell.index + 1} (${cell.label}) resolve to the same run (${r.runDir}): an axis value changes nothing in the resolved config`
      );
    byDir.set(r.runDir, prepared);
    out.push(prepared);
  }
  return out;
}
export {
  prepareGridCells,
  providerOf
};
//# sourceMappingURL=prepare-cells.js.map
