import { type Command, InvalidArgumentError } from "commander";
import pc from "picocolors";
import { DEFAULT_HOST, DEFAULT_PORT } from "../web/defaults.js";

const port = (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535)
    throw new InvalidArgumentError("expected a port number 0..65535 (0 = any free port)");
  return n;
};

/** `relive serve [RUNS...]`: the local run dashboard (src/web/). */
export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .argument(
      "[runs...]",
      "runs directories (searched for run directories) or run directories",
      process.env.RELIVE_RUNS_DIR ?? "runs",
    )
    .description(
      "local dashboard: runs list (filters, sorting), each run's summary, timeline, transcript and a paged ledger viewer (fast on 10^6-event ledgers)",
    )
    .option("-p, --port <n>", `port (0 picks a free one)`, port, DEFAULT_PORT)
    .option("--host <addr>", "address to bind; anything but loopback exposes every run to the network", DEFAULT_HOST)
    .addHelpText(
      "after",
      `
Prints the dashboard URL (default http://${DEFAULT_HOST}:${DEFAULT_PORT}/) and serves until Ctrl-C.
Pages: /runs (list; ?task= &model= &trigger= &status= &q= &sort= &order=), /runs/<id> (summary),
/runs/<id>/timeline, /runs/<id>/transcript, /runs/<id>/ledger (?cursor= | ?before= | ?at=<ISO time>,
&type=wake,commitment &actor= &limit=). The same data as JSON under /api/runs... . Read-only.

Examples:
  relive serve                      # ./runs (or $RELIVE_RUNS_DIR)
  relive serve runs other-runs --port 9000
  relive serve runs/daily-digest/scripted-top-comments/8f9941491fde-s0`,
    )
    .action(async (runs: string | string[], o: { port: number; host: string }) => {
      const roots = Array.isArray(runs) ? runs : [runs];
      const { startDashboard } = await import("../web/serve.js");
      let server: Awaited<ReturnType<typeof startDashboard>>;
      try {
        server = await startDashboard({ runs: roots, port: o.port, host: o.host });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        const why =
          e.code === "EADDRINUSE"
            ? `port ${o.port} on ${o.host} is in use (pick another with --port, or --port 0 for any free one)`
            : e.message;
        process.stderr.write(`${pc.red("error")}: ${why}\n`);
        process.exitCode = 2;
        return;
      }
      process.stdout.write(
        `relive dashboard: ${pc.bold(server.url)}  (runs under ${roots.join(", ")}; Ctrl-C to stop)\n`,
      );
      if (!/^(127\.|localhost$|::1$)/.test(o.host))
        process.stderr.write(`${pc.yellow("warning")}: bound to ${o.host}: every run is readable from the network\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          server.close().then(resolve, resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
