import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_NAME_DEFAULT } from "../../../src/cli/grid-command.js";
import { expandGrid } from "../../../src/run/grid/expand-grid.js";
import { loadGridConfig } from "../../../src/run/grid/grid-config.js";
import { DEFAULT_QUEUE_NAME, enqueueGrid, queueJobStatus } from "../../../src/run/grid/grid-queue.js";
import { gridStatus } from "../../../src/run/grid/grid-status.js";
import { type PreparedCell, prepareGridCells } from "../../../src/run/grid/prepare-cells.js";
import { processAlive } from "../../../src/run/grid/run-lock.js";
import { runFromConfig } from "../../../src/run/runner.js";
import { CACHE_DIR, freshRunsDir, options } from "../helpers.js";
import { type Proc, relive, reliveDone } from "./cli-process.js";
import { HAVE_REDIS, REDIS_SERVER, startRedisServer, stopRedisServer } from "./redis-server.js";

if (!HAVE_REDIS) console.warn(`skipping the grid queue test: ${REDIS_SERVER} is not installed`);

it("the CLI's default queue name is the library's", () => {
  expect(QUEUE_NAME_DEFAULT).toBe(DEFAULT_QUEUE_NAME);
});

describe.skipIf(!HAVE_REDIS)("grid on a BullMQ queue (real redis-server, two `relive worker` processes)", () => {
  let redis: ChildProcess | undefined;
  let url = "";
  const procs: Proc[] = [];

  beforeAll(async () => {
    const server = await startRedisServer();
    redis = server.proc;
    url = server.url;
  });

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await stopRedisServer(redis);
  });

  it("runs every cell exactly once although a worker is SIGKILLed mid-job; the killed job is retried", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-grid-queue-"));
    const runsDir = freshRunsDir();
    const gridFile = join(dir, "grid.yaml");
    writeFileSync(
      gridFile,
      [
        "base: { task: daily-digest, sim_start: 2026-03-01T00:00:00Z, sim_end: 2026-03-04T00:00:00Z }",
        "axes:",
        "  models: [scripted:top-comments, scripted:top-comments-at-13-30]",
        "  seeds: 5",
        "",
      ].join("\n"),
    );
    const cells: PreparedCell[] = await prepareGridCells(expandGrid(loadGridConfig(gridFile)), options(runsDir));
    expect(cells).toHaveLength(10);
    const loc = ["--runs", runsDir, "--cache", CACHE_DIR];
    const workerArgs = ["worker", "--queue", url, ...loc, "--lock-duration", "1000", "--stalled-interval", "500"];

    const a = relive(workerArgs);
    const b = relive(workerArgs);
    procs.push(a, b);
    const [readyA] = await Promise.all([a.waitFor(/^worker \d+ ready/), b.waitFor(/^worker \d+ ready/)]);
    const childOfA = Number(/job processes (\d+)/.exec(readyA)![1]);

    const enqueued = await reliveDone(["grid", gridFile, "--queue", url, ...loc, "--backoff", "200"]);
    expect(enqueued).toMatch(
      /10 cells: enqueued 10 on redis:\/\/127\.0\.0\.1:\d+ \(queue relive-grid\); already queued 0/,
    );

    const first = await a.waitFor(/^start \S+/);
    a.child.kill("SIGKILL");
    await a.exited;
    const killedId = first.split(" ")[1]!;

    // wait until the queue reports every cell done
    const until = Date.now() + 90_000;
    for (;;) {
      const s = await gridStatus(cells, { url });
      if (s.counts.done === cells.length) break;
      expect(s.counts.failed).toBe(0);
      if (Date.now() > until) throw new Error(`grid not done: ${JSON.stringify(s.counts)}\n${b.lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    // the killed worker's job process did not outlive it (a zombie nobody reaps counts as gone)
    expect(processAlive(childOfA)).toBe(false);

    // exactly once: one run directory per cell, each finished, each ledger with one run_start and one run_end
    const dirs = readdirSync(join(runsDir, "daily-digest"), { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory() && /-s\d+$/.test(d.name))
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual(cells.map((c) => c.id).sort());
    for (const c of cells) {
      expect(existsSync(join(c.runDir, "results.json"))).toBe(true);
      expect(existsSync(`${c.runDir}.lock`)).toBe(false);
      const events = readFileSync(join(c.runDir, "ledger.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string });
      expect(events.filter((e) => e.type === "run_start")).toHaveLength(1);
      expect(events.filter((e) => e.type === "run_end")).toHaveLength(1);
      expect(events.at(-1)!.type).toBe("run_end");
    }

    // the job of the dead worker stalled and was started again, by the live worker
    const jobs = await queueJobStatus(cells, { url });
    const retried = [...jobs.entries()].filter(([, j]) => j.stalledCounter > 0 || j.attemptsStarted > 1);
    expect(retried.length).toBeGreaterThanOrEqual(1);
    for (const [id] of retried) expect(b.lines.some((l) => l.startsWith(`start ${id} `))).toBe(true);
    // the job the dead worker started first was finished by it or started again by the live worker
    expect(retried.some(([id]) => id === killedId) || !b.lines.some((l) => l.startsWith(`start ${killedId} `))).toBe(
      true,
    );
    for (const j of jobs.values()) expect(j.state).toBe("completed");

    // a retried run's ledger is the one an uninterrupted run writes
    const [retriedId] = retried[0]!;
    const cell = cells.find((c) => c.id === retriedId)!;
    const ref = await runFromConfig(cell.config, options(freshRunsDir()));
    expect(readFileSync(join(cell.runDir, "ledger.jsonl"), "utf8")).toBe(
      readFileSync(join(ref.runDir, "ledger.jsonl"), "utf8"),
    );

    // enqueueing again adds nothing; `grid status` agrees
    const again = await enqueueGrid(cells, { url });
    expect([again.added.length, again.queued.length, again.requeued.length, again.finished.length]).toEqual([
      0, 0, 0, 10,
    ]);
    const status = JSON.parse(await reliveDone(["grid", "status", gridFile, "--queue", url, ...loc, "--json"])) as {
      counts: Record<string, number>;
    };
    expect(status.counts).toEqual({ done: 10, running: 0, waiting: 0, failed: 0, interrupted: 0, pending: 0 });

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  }, 900_000);
});
