import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandGrid } from "../../../src/run/grid/expand-grid.js";
import { loadGridConfig } from "../../../src/run/grid/grid-config.js";
import { REPO } from "../helpers.js";

const grids = [
  "examples/grid-digest.yaml",
  "examples/grid-best-of-n.yaml",
  "examples/event-log/grid.yaml",
  ...readdirSync(join(REPO, "examples/tables")).map((f) => `examples/tables/${f}`),
];

describe("the example grids", () => {
  it.each(grids)("%s parses and expands into valid run configs", (path) => {
    const cells = expandGrid(loadGridConfig(join(REPO, path)), path);
    expect(cells.length).toBeGreaterThan(1);
  });

  it("the table grids vary world seeds (replicates) rather than seeds alone", () => {
    for (const f of readdirSync(join(REPO, "examples/tables"))) {
      const g = loadGridConfig(join(REPO, "examples/tables", f));
      expect(Object.keys(g.axes), f).toContain("world.seed");
    }
  });
});
