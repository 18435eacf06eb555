import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunConfig } from "../../../src/run/config.js";
import { expandGrid } from "../../../src/run/grid/expand-grid.js";
import { parseGridConfig } from "../../../src/run/grid/grid-config.js";
import { type GridJobSummary, readResultsHead } from "../../../src/run/grid/grid-job.js";
import { JobChild, JobChildPool, JobProcessExitError } from "../../../src/run/grid/job-child.js";
import { forkJobProcesses, type GridEvent, type JobRunner, runGridLocal } from "../../../src/run/grid/local-pool.js";
import { type PreparedCell, prepareGridCells } from "../../../src/run/grid/prepare-cells.js";
import { processAlive } from "../../../src/run/grid/run-lock.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { CACHE_DIR, freshRunsDir, options } from "../helpers.js";

const BASE = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const GRID = parseGridConfig({ base: BASE, axes: { models: ["scripted:top-comments", "scripted:silent"], seeds: 4 } });

const prepared = async (runsDir: string) => await prepareGridCells(expandGrid(GRID), options(runsDir));
const runOpts = (runsDir: string) => ({ runsDir, cacheDir: CACHE_DIR });

/** most events of `types` open at once, per key */
function maxOpen(events: GridEvent[], key: (c: PreparedCell) => string): Map<string, number> {
  const open = new Map<string, number>();
  const max = new Map<string, number>();
  for (const e of events) {
    const k = key(e.cell);
    if (e.type === "start") open.set(k, (open.get(k) ?? 0) + 1);
    if (e.type === "done" || e.type === "retry" || e.type === "failed") open.set(k, (open.get(k) ?? 0) - 1);
    max.set(k, Math.max(max.get(k) ?? 0, open.get(k) ?? 0));
  }
  return max;
}

describe("local worker pool", () => {
  it("runs every cell once in 2 job processes, with the same ledgers as in-process runs", async () => {
    const runsDir = freshRunsDir();
    const cells = await prepared(runsDir);
    expect(cells).toHaveLength(8);
    const events: GridEvent[] = [];
    const out = await runGridLocal(cells, { workers: 2, run: runOpts(runsDir), onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === "retry" || e.type === "failed")).toEqual([]);
    expect(out.map((x) => [x.status, x.attempts])).toEqual(cells.map(() => ["done", 1]));
    expect(out.map((x) => x.summary?.primary)).toEqual(
      cells.map((c) => ({
        name: "digest_acc",
        value: c.model === "scripted:silent" ? 0 : 1,
        direction: "higher",
      })),
    );
    expect(events.filter((e) => e.type === "start")).toHaveLength(8);
    expect(maxOpen(events, () => "all").get("all")).toBeLessThanOrEqual(2);
    for (const c of cells) {
      expect(existsSync(join(c.runDir, "results.json"))).toBe(true);
      expect(out[c.index]!.summary!.runDir).toBe(c.runDir);
      // the summary (made from the results in memory) is what results.json holds
      expect({ primary: out[c.index]!.summary!.primary, spent_usd: out[c.index]!.summary!.spent_usd }).toEqual({
        primary: readResultsHead(c.runDir).performance.primary,
        spent_usd: readResultsHead(c.runDir).resources.spent_usd,
      });
    }
    // no other run directories than the cells'
    const dirs = readdirSync(join(runsDir, "daily-digest"), { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory() && /-s\d+$/.test(d.name))
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual(cells.map((c) => c.id).sort());
    // a job process writes what an in-process run writes
    const other = freshRunsDir();
    const ref = await runFromConfig(cells[5]!.config, options(other));
    expect(readFileSync(join(cells[5]!.runDir, "ledger.jsonl"), "utf8")).toBe(
      readFileSync(join(ref.runDir, "ledger.jsonl"), "utf8"),
    );
  });

  it("resumes: finished cells are skipped and an interrupted run directory is continued", async () => {
    const runsDir = freshRunsDir();
    const cells = (await prepared(runsDir)).slice(0, 6);
    for (const c of cells.slice(0, 3)) await runFromConfig(c.config, options(runsDir));
    // cell 4: killed half-way (a torn ledger, no results)
    const cut = cells[3]!;
    await runFromConfig(cut.config, options(runsDir));
    const fullLedger = readFileSync(join(cut.runDir, "ledger.jsonl"), "utf8");
    const fullResults = readFileSync(join(cut.runDir, "results.json"), "utf8");
    const lines = fullLedger.split("\n");
    writeFileSync(join(cut.runDir, "ledger.jsonl"), `${lines.slice(0, lines.length >> 1).join("\n")}\n{"type":"to`);
    rmSync(join(cut.runDir, "results.json"));

    const events: GridEvent[] = [];
    const out = await runGridLocal(cells, { workers: 2, run: runOpts(runsDir), onEvent: (e) => events.push(e) });
    expect(out.map((x) => x.status)).toEqual(["cached", "cached", "cached", "done", "done", "done"]);
    expect(out.map((x) => x.attempts)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(events.filter((e) => e.type === "skipped").map((e) => e.cell.index)).toEqual([0, 1, 2]);
    expect(
      events
        .filter((e) => e.type === "start")
        .map((e) => e.cell.index)
        .sort(),
    ).toEqual([3, 4, 5]);
    expect(out[3]!.summary!.resumed).toBe(true);
    expect(out[4]!.summary!.resumed).toBe(false);
    expect(readFileSync(join(cut.runDir, "ledger.jsonl"), "utf8")).toBe(fullLedger);
    expect(readFileSync(join(cut.runDir, "results.json"), "utf8")).toBe(fullResults);

    // everything finished: a second pass runs nothing
    const again: GridEvent[] = [];
    const out2 = await runGridLocal(cells, { workers: 2, run: runOpts(runsDir), onEvent: (e) => again.push(e) });
    expect(out2.map((x) => x.status)).toEqual(cells.map(() => "cached"));
    expect(again.map((e) => e.type)).toEqual(cells.map(() => "skipped"));
  });

  it("retries a failed cell up to the limit (a config error not at all), then reports it failed without stopping the others", async () => {
    const cells = (await prepared(freshRunsDir())).slice(0, 4);
    const calls = new Map<number, number>();
    const fake = (c: PreparedCell): GridJobSummary => ({
      id: c.id,
      label: c.label,
      runDir: c.runDir,
      status: "done",
      resumed: false,
      primary: { name: "digest_acc", value: 1, direction: "higher" },
      spent_usd: 0,
      wall_ms: 0,
    });
    const byId = new Map(cells.map((c) => [c.id, c]));
    const runner: JobRunner = async (job) => {
      const c = byId.get(job.id as string)!;
      const n = (calls.get(c.index) ?? 0) + 1;
      calls.set(c.index, n);
      if (c.index === 0) throw new Error("always broken");
      if (c.index === 1 && n === 1) throw new Error("flaky once");
      if (c.index === 2) throw Object.assign(new Error("task: no such task"), { name: "ConfigError" });
      return fake(c);
    };
    const events: GridEvent[] = [];
    const out = await runGridLocal(cells, {
      workers: 2,
      retries: 2,
      run: runOpts("unused"),
      runner,
      onEvent: (e) => events.push(e),
    });
    expect(out.map((x) => [x.status, x.attempts])).toEqual([
      ["failed", 3],
      ["done", 2],
      ["failed", 1], // a configuration error is not retried
      ["done", 1],
    ]);
    expect(out[0]!.error).toBe("Error: always broken");
    expect(events.filter((e) => e.type === "retry").map((e) => [e.cell.index, e.attempt])).toEqual(
      expect.arrayContaining([
        [0, 1],
        [0, 2],
        [1, 1],
      ]),
    );
    expect(
      events
        .filter((e) => e.type === "failed")
        .map((e) => e.cell.index)
        .sort(),
    ).toEqual([0, 2]);
    expect(out[2]!.error).toBe("ConfigError: task: no such task");

    calls.clear();
    const none = await runGridLocal(cells.slice(0, 1), { workers: 1, retries: 0, run: runOpts("unused"), runner });
    expect(none.map((x) => [x.status, x.attempts])).toEqual([["failed", 1]]);
    expect(calls.get(0)).toBe(1);
  });

  it("holds a provider's concurrency cap while other providers fill the free workers", async () => {
    const cells = await prepared(freshRunsDir());
    // four cells billed to a capped provider, four uncapped
    const mixed: PreparedCell[] = cells.map((c) => (c.index % 2 === 0 ? { ...c, provider: "openai" } : c));
    const runner: JobRunner = async (job) => {
      await new Promise((r) => setTimeout(r, 30));
      const c = mixed.find((x) => x.id === job.id)!;
      return {
        id: c.id,
        label: c.label,
        runDir: c.runDir,
        status: "done",
        resumed: false,
        primary: { name: "m", value: 0, direction: "higher" },
        spent_usd: 0,
        wall_ms: 30,
      };
    };
    const events: GridEvent[] = [];
    const out = await runGridLocal(mixed, {
      workers: 3,
      caps: { openai: 1 },
      run: runOpts("unused"),
      runner,
      onEvent: (e) => events.push(e),
    });
    expect(out.every((x) => x.status === "done")).toBe(true);
    const perProvider = maxOpen(events, (c) => c.provider);
    expect(perProvider.get("openai")).toBe(1);
    expect(perProvider.get("scripted")).toBe(2);
    expect(maxOpen(events, () => "all").get("all")).toBe(3);
  });

  it("runs on job processes forked before the cells were prepared, and closes them when the grid ends", async () => {
    const pool = forkJobProcesses(2);
    const forked = pool.pids;
    expect(forked).toHaveLength(2);
    const runsDir = freshRunsDir();
    const cells = (await prepared(runsDir)).slice(0, 3); // prepared while the processes load the runner
    const out = await runGridLocal(cells, { workers: 2, run: runOpts(runsDir), pool });
    expect(out.map((x) => x.status)).toEqual(["done", "done", "done"]);
    expect(pool.pids).toEqual([]);
    for (const pid of forked) expect(processAlive(pid)).toBe(false);
    // a grid with nothing left to run closes the processes forked for it too
    const idle = forkJobProcesses(2);
    const idlePids = idle.pids;
    const again = await runGridLocal(cells, { workers: 2, run: runOpts(runsDir), pool: idle });
    expect(again.map((x) => x.status)).toEqual(["cached", "cached", "cached"]);
    expect(idle.pids).toEqual([]);
    for (const pid of idlePids) expect(processAlive(pid)).toBe(false);
    // and so does one whose options are refused
    const refused = forkJobProcesses(1);
    const refusedPids = refused.pids;
    await expect(runGridLocal(cells, { workers: 0, run: runOpts(runsDir), pool: refused })).rejects.toThrow(/workers/);
    for (const pid of refusedPids) expect(processAlive(pid)).toBe(false);
  });

  it("a job process running the sources through tsx (a stale build) runs a cell like the bundle's process", async () => {
    const runsDir = freshRunsDir();
    const cells = await prepared(runsDir);
    const cell = cells[1]!;
    const job = { id: cell.id, label: cell.label, config: cell.config };
    const child = new JobChild({ sources: true });
    try {
      const summary = await child.run(job, runOpts(runsDir));
      expect([summary.id, summary.status, summary.primary]).toEqual([
        cell.id,
        "done",
        { name: "digest_acc", value: cell.model === "scripted:silent" ? 0 : 1, direction: "higher" },
      ]);
      const inProcess = await runFromConfig(cell.config, options());
      expect(readFileSync(join(cell.runDir, "ledger.jsonl"), "utf8")).toBe(
        readFileSync(join(inProcess.runDir, "ledger.jsonl"), "utf8"),
      );
    } finally {
      await child.stop();
    }
  });

  it("a job process that dies fails only its job; the pool forks a new one", async () => {
    const runsDir = freshRunsDir();
    const cells = await prepared(runsDir);
    const cell = cells[0];
    const pool = new JobChildPool(1);
    try {
      await pool.warm();
      const [first] = pool.pids;
      const job = { id: cell!.id, label: cell!.label, config: cell!.config };
      const running = pool.run(job, runOpts(runsDir));
      process.kill(first!, "SIGKILL");
      await expect(running).rejects.toBeInstanceOf(JobProcessExitError);
      const summary = await pool.run(job, runOpts(runsDir));
      expect(pool.pids).toHaveLength(1);
      expect(pool.pids[0]).not.toBe(first);
      expect(summary.primary.value).toBe(1);
      expect(summary.id).toBe(cell!.id);
      // the finished cell is a no-op the second time; a second job waits for the one process
      const [again, other] = await Promise.all([
        pool.run(job, runOpts(runsDir)),
        pool.run({ id: cells[1]!.id, label: cells[1]!.label, config: cells[1]!.config }, runOpts(runsDir)),
      ]);
      expect([again.status, other.status, other.id]).toEqual(["cached", "done", cells[1]!.id]);
      expect(pool.pids).toHaveLength(1);
      // a job whose cell id does not match this process's resolution is refused
      await expect(pool.run({ ...job, id: "000000000000-s0" }, runOpts(runsDir))).rejects.toThrow(
        /job 000000000000-s0: this process resolves the cell to/,
      );
      // a bad config fails the job, with the config error's message
      await expect(pool.run({ config: { task: "nope" } }, runOpts(runsDir))).rejects.toThrow(/task:/);
    } finally {
      await pool.close();
    }
    expect(parseRunConfig(cell!.config).seed).toBe(0);
  });
});
