import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectConfig, loadProjectConfig } from "../../src/run/project-config.js";
import { runEpisode } from "../../src/run/run-episode.js";
import { withTaskModule } from "../../src/run/task-module.js";
import { CACHE_DIR, freshRunsDir, REPO } from "./helpers.js";

const EXAMPLE = resolve(REPO, "examples/custom-task/post-counter.ts");
const project = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), "relive-project-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe("relive.config.* (a project's task modules)", () => {
  it("no file: nothing loaded, configs unchanged", async () => {
    const dir = project({});
    expect(findProjectConfig(dir)).toBeNull();
    expect(await loadProjectConfig({ dir })).toEqual({ path: null, config: { task_modules: [], recipe_dirs: [] } });
    expect(withTaskModule({ task: "daily-digest" })).toEqual({ task: "daily-digest" });
  });

  it("refuses two config files, an unknown field and a missing module, naming the file", async () => {
    const two = project({ "relive.config.json": "{}", "relive.config.yaml": "task_modules: []\n" });
    expect(() => findProjectConfig(two)).toThrow(
      /several relive config files.*relive\.config\.json.*relive\.config\.yaml/,
    );
    const bad = project({ "relive.config.yaml": "task_module: ./x.ts\n" });
    await expect(loadProjectConfig({ dir: bad })).rejects.toThrow(
      /relive\.config\.yaml: not a relive project config[\s\S]*task_module/,
    );
    const missing = project({ "relive.config.json": JSON.stringify({ task_modules: ["./nope.ts"] }) });
    await expect(loadProjectConfig({ dir: missing })).rejects.toThrow(
      /relive\.config\.json: task_modules: task_module: no such file .*nope\.ts/,
    );
    const broken = project({ "relive.config.json": "{ task_modules: " });
    await expect(loadProjectConfig({ dir: broken })).rejects.toThrow(/relive\.config\.json: not valid JSON/);
  });

  it("a listed module's task runs by id and its run records the module's path and sha256", async () => {
    const dir = project({});
    mkdirSync(join(dir, "tasks"));
    writeFileSync(join(dir, "tasks", "post-counter.ts"), readFileSync(EXAMPLE, "utf8"));
    writeFileSync(join(dir, "relive.config.yaml"), "task_modules:\n  - tasks/post-counter.ts\n");
    const { path } = await loadProjectConfig({ dir });
    expect(path).toBe(join(dir, "relive.config.yaml"));
    const module = join(dir, "tasks", "post-counter.ts");
    expect(withTaskModule({ task: "post-counter" })).toEqual({ task: "post-counter", task_module: module });
    const out = await runEpisode(
      { task: "post-counter", agent: { model: "scripted:counter" } },
      { runsDir: freshRunsDir(), cacheDir: CACHE_DIR },
    );
    expect(out.results.performance.primary.value).toBe(1);
    const saved = JSON.parse(readFileSync(join(out.runDir, "config.json"), "utf8"));
    expect(saved.config.task_module).toBe(module);
    expect(saved.resolved.task_module.path).toBe(module);
    expect(saved.resolved.task_module.sha256).toMatch(/^[0-9a-f]{64}$/);
  }, 600_000);
});
