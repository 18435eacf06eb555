import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import cliProgress from "cli-progress";
import Table from "cli-table3";
import type { Command } from "commander";
import pc from "picocolors";
import { recipeSearchPath } from "../recipes/recipe-dirs.js";
import type { GridCell } from "../run/grid/expand-grid.js";
import type { GridConfig } from "../run/grid/grid-config.js";
import type { GridJobSummary } from "../run/grid/grid-job.js";
import type { QueueLocation } from "../run/grid/grid-queue.js";
import type { CellStatus } from "../run/grid/grid-status.js";
import type { GridCellOutcome, GridEvent } from "../run/grid/local-pool.js";
import type { PreparedCell } from "../run/grid/prepare-cells.js";
import type { WorkerEvent } from "../run/grid/queue-worker.js";
import { nonNegativeInt as nonNegInt, positiveInt } from "./arg-parsers.js";

interface Locations {
  runs: string;
  cache: string;
  raw?: string;
  recipes?: string[];
  quiet?: boolean;
}

const withLocations = (c: Command) =>
  c
    .option("--runs <dir>", "runs directory (shared by all workers)", process.env.RELIVE_RUNS_DIR ?? "runs")
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option(
      "--raw <dir>",
      "data root of world recipes without data_dir (default $RELIVE_RAW_DIR or ../shared/data/raw)",
    )
    .option(
      "--recipes <dir>",
      "a folder of world recipes whose episodes the grid may name (repeatable; before relive.config recipe_dirs and the shipped recipes/)",
      (v: string, acc: string[] = []) => [...acc, v],
    );

/** BullMQ and the queue modules load only for queue commands (they cost every other command a second) */
const queueModule = () => import("../run/grid/grid-queue.js");
/** the default of --queue-name; equals DEFAULT_QUEUE_NAME of grid-queue.ts (checked by a test) */
export const QUEUE_NAME_DEFAULT = "relive-grid";

const withQueueName = (c: Command) =>
  c.option("--queue-name <name>", "BullMQ queue name (grid and workers must agree)", QUEUE_NAME_DEFAULT);

const err = (m: string) => process.stderr.write(`${m}\n`);
const dim = (m: string) => err(pc.dim(m));

const runOptions = (o: Locations) => ({
  runsDir: resolve(o.runs),
  cacheDir: resolve(o.cache),
  ...(o.raw ? { rawDir: resolve(o.raw) } : {}),
  // the whole search path: job processes and queue workers do not read the project config
  recipeDirs: recipeSearchPath((o.recipes ?? []).map((d) => resolve(d))),
});

/** Loads, expands and resolves a grid (building its worlds once, before any worker starts). */
async function loadCells(
  path: string,
  o: Locations,
  checkModel: boolean,
): Promise<{ grid: GridConfig; cells: PreparedCell[]; raw: GridCell[] }> {
  const [{ loadGridConfig }, { expandGrid }, { prepareGridCells }] = await Promise.all([
    import("../run/grid/grid-config.js"),
    import("../run/grid/expand-grid.js"),
    import("../run/grid/prepare-cells.js"),
  ]);
  const grid = loadGridConfig(path);
  const raw = expandGrid(grid, path);
  const cells = await prepareGridCells(raw, { ...runOptions(o), checkModel, log: (m) => dim(m) });
  return { grid, cells, raw };
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : Number(v.toFixed(4)).toString());
const metric = (s?: GridJobSummary) => (s ? `${s.primary.name} ${fmt(s.primary.value)}` : "");
const spend = (s?: GridJobSummary) => (s ? `$${s.spent_usd.toFixed(4)}` : "");

function outcomeTable(outcomes: GridCellOutcome[]): string {
  const t = new Table({
    head: ["#", "cell", "status", "tries", "primary", "spent", "run"].map((h) => pc.bold(h)),
    style: { head: [], border: [], compact: true },
  });
  for (const x of outcomes) {
    const status =
      x.status === "failed"
        ? pc.red("failed")
        : x.summary?.resumed
          ? pc.green("done (resumed)")
          : x.status === "cached"
            ? pc.yellow("cached")
            : pc.green("done");
    t.push([
      String(x.cell.index + 1),
      x.cell.label || "base",
      status,
      String(x.attempts),
      x.status === "failed" ? (x.error ?? "").split("\n")[0]!.slice(0, 80) : metric(x.summary),
      spend(x.summary),
      x.cell.id,
    ]);
  }
  return t.toString();
}

function statusTable(rows: CellStatus[]): string {
  const t = new Table({
    head: ["#", "cell", "state", "tries", "primary", "spent", "run"].map((h) => pc.bold(h)),
    style: { head: [], border: [], compact: true },
  });
  const color = (s: CellStatus["state"]) =>
    s === "done" ? pc.green(s) : s === "failed" ? pc.red(s) : s === "running" ? pc.cyan(s) : s;
  for (const r of rows)
    t.push([
      String(r.cell.index + 1),
      r.cell.label || "base",
      color(r.state),
      r.job ? String(r.job.attemptsStarted) : "",
      r.state === "failed" ? (r.job?.failedReason ?? "").split("\n")[0]!.slice(0, 80) : metric(r.summary),
      spend(r.summary),
      r.cell.id,
    ]);
  return t.toString();
}

const countsLine = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(" · ");

/** Progress of a local grid: a bar on a terminal, one line per finished cell otherwise. */
function progressReporter(total: number, quiet: boolean) {
  const counts = { done: 0, cached: 0, running: 0, queued: total, failed: 0, retries: 0 };
  const tty = Boolean(process.stderr.isTTY) && !quiet;
  const multi = tty
    ? new cliProgress.MultiBar(
        {
          format: `grid {bar} {value}/{total} | done {done} · cached {cached} · running {running} · queued {queued} · failed {failed} · retries {retries} | {duration_formatted} (eta {eta_formatted})`,
          hideCursor: true,
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const bar = multi?.create(total, 0, counts);
  const say = (line: string) => {
    if (quiet) return;
    if (multi) multi.log(`${line}\n`);
    else err(line);
  };
  const finished = () => counts.done + counts.cached + counts.failed;
  const update = () => bar?.update(finished(), counts);
  const onEvent = (e: GridEvent) => {
    const tag = `[${e.cell.index + 1}/${total}] ${e.cell.label || "base"}`;
    switch (e.type) {
      case "skipped":
        counts.queued--;
        counts.cached++;
        break;
      case "start":
        counts.queued--;
        counts.running++;
        break;
      case "log":
        say(pc.dim(`${tag}: ${e.message}`));
        break;
      case "done":
        counts.running--;
        counts[e.summary.status === "cached" ? "cached" : "done"]++;
        say(
          `${pc.green("✓")} ${tag}  ${metric(e.summary)}  ${spend(e.summary)}${e.summary.resumed ? " (resumed)" : ""}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ""}`,
        );
        break;
      case "retry":
        counts.running--;
        counts.queued++;
        counts.retries++;
        say(`${pc.yellow("↻")} ${tag}  attempt ${e.attempt} failed, will retry: ${e.error.split("\n")[0]}`);
        break;
      case "failed":
        counts.running--;
        counts.failed++;
        say(`${pc.red("✗")} ${tag}  failed after ${e.attempts} attempt(s): ${e.error.split("\n")[0]}`);
        break;
      default: {
        const never: never = e;
        throw new Error(`unhandled grid event ${JSON.stringify(never)}`);
      }
    }
    update();
  };
  return { onEvent, stop: () => multi?.stop(), counts };
}

export function registerGridCommands(program: Command): void {
  const grid = withQueueName(
    withLocations(
      program
        .command("grid")
        .argument("<config>", "grid file (YAML or JSON): base run config, axes, per-provider concurrency")
        .description(
          "run the cross product of a grid's axes (tasks × models × triggers × seeds × episodes × any run-config field) on a local worker pool, or enqueue it on BullMQ for `relive worker` processes; finished cells are skipped, so running it again resumes",
        )
        .option("-w, --workers <n>", "local job processes running at once (default: the number of CPUs)", positiveInt)
        .option("--retries <n>", "further attempts after a failed one, per cell", nonNegInt, 2)
        .option(
          "--queue <url>",
          "Redis of a BullMQ queue (redis://host:port[/db]): `grid` enqueues the cells there instead of running them; `grid status` reads their jobs",
        )
        .option("--backoff <ms>", "with --queue: first retry delay, doubled each further attempt", positiveInt, 5000)
        .option("--wait", "with --queue: follow the queue until every cell is done or failed")
        .option("--json", "print JSON (the cell outcomes, or the status rows) instead of the table")
        .option("-q, --quiet", "no progress bar or per-cell lines"),
    ),
  )
    .addHelpText(
      "after",
      `
Grid file:
  base:            a run config, as for \`relive run --config\` (fields set by axes may be left out)
  axes:            tasks, episodes, models, triggers, seeds (a list, or a count N for 0..N-1), and any
                   run-config field as a dotted path: feedback, agent.deadline_guard, agent.context_tokens,
                   agent.effort, task_params.<name>, world.seed, …; each a list of values
  concurrency:     per-provider cap of jobs running at once, e.g. { openai: 4, anthropic: 2 }
                   (providers not named, such as scripted and cassette, are uncapped)

Cells are the full cross product in a fixed order (task, episode, model, trigger, other axes in file
order, seed fastest). A cell's id is its run directory's name <run-id>-s<seed>.

Example:
  base: { task: daily-digest, sim_start: 2026-03-01T00:00:00Z, sim_end: 2026-03-04T00:00:00Z }
  axes: { models: [scripted:top-comments, scripted:silent], seeds: 5, agent.trigger: [sleep, cron] }

  relive grid grid.yaml --workers 2
  relive grid grid.yaml --queue redis://127.0.0.1:6379 && relive worker --queue redis://127.0.0.1:6379
  relive grid status grid.yaml [--queue redis://127.0.0.1:6379]`,
    )
    .action(async (path: string, o: Locations & Record<string, unknown>) => {
      const [{ gridStatus }, { forkJobProcesses, runGridLocal }] = await Promise.all([
        import("../run/grid/grid-status.js"),
        import("../run/grid/local-pool.js"),
      ]);
      const workers = (o.workers as number | undefined) ?? availableParallelism();
      // the job processes load the runner while the cells are prepared (worlds built, runs resolved)
      const pool = o.queue ? undefined : forkJobProcesses(workers);
      let g: GridConfig;
      let cells: PreparedCell[];
      try {
        ({ grid: g, cells } = await loadCells(path, o, true));
      } catch (e) {
        await pool?.close();
        throw e;
      }
      const retries = o.retries as number;
      if (o.queue) {
        const loc: QueueLocation = { url: o.queue as string, name: o.queueName as string };
        const { enqueueGrid } = await queueModule();
        const rep = await enqueueGrid(cells, loc, { retries, backoffMs: o.backoff as number, caps: g.concurrency });
        process.stdout.write(
          `${cells.length} cells: enqueued ${rep.added.length} on ${loc.url} (queue ${loc.name}); already queued ${rep.queued.length}; finished ${rep.finished.length}; failed ones re-queued ${rep.requeued.length}\n`,
        );
        if (!o.wait) {
          process.stdout.write(
            `run workers with: relive worker --queue ${loc.url}${loc.name !== QUEUE_NAME_DEFAULT ? ` --queue-name ${loc.name}` : ""} --runs ${o.runs}\nprogress: relive grid status ${path} --queue ${loc.url}\n`,
          );
          return;
        }
        for (;;) {
          const s = await gridStatus(cells, loc);
          if (!o.quiet) err(`${new Date().toISOString().slice(11, 19)}  ${countsLine(s.counts)}`);
          if (s.counts.done + s.counts.failed === cells.length) {
            process.stdout.write(`${o.json ? JSON.stringify(s.cells, null, 2) : statusTable(s.cells)}\n`);
            if (s.counts.failed > 0) process.exitCode = 1;
            return;
          }
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
      const progress = progressReporter(cells.length, Boolean(o.quiet));
      let outcomes: GridCellOutcome[];
      try {
        outcomes = await runGridLocal(cells, {
          workers,
          retries,
          caps: g.concurrency,
          run: runOptions(o),
          onEvent: progress.onEvent,
          ...(pool ? { pool } : {}),
        });
      } finally {
        progress.stop();
      }
      const failed = outcomes.filter((x) => x.status === "failed").length;
      if (o.json) process.stdout.write(`${JSON.stringify(outcomes, null, 2)}\n`);
      else {
        const total = outcomes.reduce((s, x) => s + (x.summary?.spent_usd ?? 0), 0);
        process.stdout.write(`${outcomeTable(outcomes)}\n`);
        process.stdout.write(
          `${cells.length} cells: done ${outcomes.filter((x) => x.status === "done").length}, cached ${outcomes.filter((x) => x.status === "cached").length}, failed ${failed}; spent $${total.toFixed(4)}; runs in ${o.runs}\n`,
        );
      }
      if (failed > 0) process.exitCode = 1;
    });

  // `grid status` shares the options of `grid` (--runs, --cache, --raw, --queue, --queue-name, --json):
  // commander hands the options after a subcommand to the parent command that defines them.
  const status = grid
    .command("status")
    .argument("<config>", "grid file")
    .description(
      "show a grid's progress: counts of done / running / waiting / failed / interrupted / pending cells and a per-cell table (from the queue with --queue, else from the runs directory)",
    )
    .configureHelp({ showGlobalOptions: true })
    .action(async (path: string) => {
      const o = status.optsWithGlobals() as Locations & Record<string, unknown>;
      const { cells } = await loadCells(path, o, false);
      const { CELL_STATES, gridStatus } = await import("../run/grid/grid-status.js");
      const s = await gridStatus(cells, o.queue ? { url: o.queue as string, name: o.queueName as string } : undefined);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ counts: s.counts, cells: s.cells }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${statusTable(s.cells)}\n`);
      process.stdout.write(`${cells.length} cells: ${CELL_STATES.map((k) => `${k} ${s.counts[k]}`).join(" · ")}\n`);
    });

  withQueueName(
    withLocations(
      program
        .command("worker")
        .description(
          "process grid jobs from a BullMQ queue (enqueued by `relive grid CONFIG --queue URL`), each in its own job process, writing runs to the shared runs directory; run any number, on any machine that sees the runs directory",
        )
        .requiredOption("--queue <url>", "Redis of the queue (redis://host:port[/db])")
        .option("-c, --concurrency <n>", "jobs run at once by this worker, each in a job process", positiveInt, 1)
        .option(
          "--lock-duration <ms>",
          "BullMQ job lock; a dead worker's job returns to the queue once it expires",
          positiveInt,
          30_000,
        )
        .option("--stalled-interval <ms>", "how often to look for jobs of dead workers", positiveInt, 30_000)
        .option("-q, --quiet", "no per-job lines"),
    ),
  )
    .addHelpText(
      "after",
      `
Each job runs the same job function as the local pool: a finished run directory is a no-op, an
interrupted one is resumed. If a worker dies, its job's lock expires after --lock-duration and the
next stalled-job check of a live worker (every --stalled-interval) puts it back on the queue.
Failed attempts are retried with exponential backoff (--retries and --backoff of \`relive grid\`).
A grid's per-provider concurrency caps hold per worker process: W workers may run up to W × cap
jobs of a capped provider at once. SIGINT/SIGTERM: finish the running jobs, then exit.`,
    )
    .action(async (o: Locations & Record<string, unknown>) => {
      const quiet = Boolean(o.quiet);
      const line = (m: string) => {
        if (!quiet) process.stdout.write(`${m}\n`);
      };
      const onEvent = (e: WorkerEvent) => {
        switch (e.type) {
          case "ready":
            line(
              `worker ${process.pid} ready: queue ${o.queueName} on ${o.queue}, concurrency ${o.concurrency}, job processes ${e.pids.join(" ")}`,
            );
            return;
          case "start":
            line(`start ${e.id} ${e.label} (attempt ${e.attempt}, queued ${e.startedAt - e.enqueuedAt} ms ago)`);
            return;
          case "log":
            line(pc.dim(`log ${e.id}: ${e.message}`));
            return;
          case "done":
            line(
              `done ${e.id} ${e.summary.status}${e.summary.resumed ? " resumed" : ""} ${metric(e.summary)} ${spend(e.summary)} ${e.summary.wall_ms} ms`,
            );
            return;
          case "failed":
            line(`failed ${e.id} attempt ${e.attempt}${e.final ? " (final)" : ""}: ${e.error.split("\n")[0]}`);
            return;
          case "error":
            err(`${pc.red("worker error")}: ${e.error}`);
            return;
          default: {
            const never: never = e;
            throw new Error(`unhandled worker event ${JSON.stringify(never)}`);
          }
        }
      };
      const { startQueueWorker } = await import("../run/grid/queue-worker.js");
      const handle = await startQueueWorker({
        url: o.queue as string,
        name: o.queueName as string,
        concurrency: o.concurrency as number,
        run: runOptions(o),
        lockDurationMs: o.lockDuration as number,
        stalledIntervalMs: o.stalledInterval as number,
        onEvent,
      });
      await new Promise<void>((done) => {
        let stopping = false;
        const stop = (sig: string) => {
          if (stopping) process.exit(130);
          stopping = true;
          line(`${sig}: finishing running jobs (again to quit at once)`);
          handle.close().then(done, (e: Error) => {
            err(`error while closing: ${e.message}`);
            done();
          });
        };
        process.on("SIGINT", () => stop("SIGINT"));
        process.on("SIGTERM", () => stop("SIGTERM"));
      });
    });
}
