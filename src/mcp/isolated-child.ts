import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

/** The ledger note (and results flag) of an `--agent-cmd` run whose app ran without network isolation. */
export const EXTERNAL_NO_ISOLATION = "external_no_isolation";
/** The ledger note of an `--agent-cmd` run confined to a network namespace. */
export const EXTERNAL_ISOLATION = "external_isolation";

/** How an outside agent command is confined: `netns` (Linux network namespace) or `none` (`--no-isolation`). */
export type Isolation = "netns" | "none";

/** Whether network isolation works on this machine: null when it does, else why not. */
export function isolationUnavailable(env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform !== "linux")
    return `network isolation needs Linux network namespaces (this is ${process.platform})`;
  for (const tool of ["unshare", "setpriv", "ip"]) {
    const found = spawnSync("/bin/sh", ["-c", `command -v ${tool}`], {
      encoding: "utf8",
      env: { PATH: env.PATH ?? "" },
    });
    if (found.status !== 0) return `network isolation needs \`${tool}\` (util-linux / iproute2), which is not on PATH`;
  }
  const probe = spawnSync("unshare", ["-n", "--", "ip", "link", "set", "lo", "up"], {
    encoding: "utf8",
    env: { PATH: env.PATH ?? "" },
  });
  if (probe.status !== 0)
    return `\`unshare -n\` failed here (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}): creating a network namespace needs root or CAP_SYS_ADMIN`;
  return null;
}

export interface AgentCommandSpec {
  /** a shell command line, run by /bin/sh -c */
  command: string;
  cwd: string;
  /** the child's whole environment (nothing of the parent's is inherited beyond it) */
  env: Record<string, string>;
  /** loopback ports of this process the child may reach (the MCP endpoint and the metering proxy) */
  allowPorts: number[];
  isolation: Isolation;
  /** a private directory for the relay's Unix sockets */
  socketDir: string;
  /** where the child's stdout and stderr go (default: inherited) */
  stdio?: "inherit" | "pipe";
}

export interface AgentChild {
  child: ChildProcess;
  /** resolves when the command has exited: its exit code, or 128 + signal number */
  exited: Promise<number>;
  /** SIGTERM to the child's process group, SIGKILL after `graceMs` */
  stop(graceMs: number): Promise<void>;
}

/**
 * The namespace's init, run by node inside `unshare -n` (as root there): bring up `lo`, listen on
 * 127.0.0.1:P for each allowed port and relay every connection to the parent's Unix socket for P,
 * then run the command under `setpriv` with every capability dropped (inheritable, bounding,
 * no_new_privs), so it cannot bring up interfaces, re-enter the parent's namespace (`setns` needs
 * CAP_SYS_ADMIN) or regain privileges. Exits with the command's status.
 */
const NS_INIT = `
const { execFileSync, spawn } = require("node:child_process");
const net = require("node:net");
const spec = JSON.parse(process.argv[1]);
execFileSync("ip", ["link", "set", "lo", "up"]);
let listening = 0;
const start = () => {
  const child = spawn("setpriv", ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", "/bin/sh", "-c", spec.command], { cwd: spec.cwd, env: spec.env, stdio: "inherit" });
  for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (require("node:os").constants.signals[signal] || 15)));
};
for (const p of spec.ports) {
  const server = net.createServer((inside) => {
    const out = net.connect(p.socket);
    inside.pipe(out);
    out.pipe(inside);
    inside.on("error", () => out.destroy());
    out.on("error", () => inside.destroy());
  });
  server.listen(p.port, "127.0.0.1", () => { if (++listening === spec.ports.length) start(); });
}
if (spec.ports.length === 0) start();
`;

const pipeTo = (a: Socket, b: Socket) => {
  a.pipe(b);
  b.pipe(a);
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
};

/**
 * Launches an outside agent command. Under `netns` it runs in a fresh Linux network namespace whose
 * only reachable endpoints are the allowed loopback ports, relayed through Unix sockets of this
 * process (same port numbers inside, so the URLs the child is given are the same either way), with
 * every capability dropped; under `none` it is a plain child process. Either way it gets exactly
 * `env` and its own process group.
 */
export async function spawnAgentCommand(spec: AgentCommandSpec): Promise<AgentChild> {
  const relays: Server[] = [];
  let child: ChildProcess;
  const stdio =
    spec.stdio === "pipe" ? (["ignore", "pipe", "pipe"] as const) : (["ignore", "inherit", "inherit"] as const);
  if (spec.isolation === "netns") {
    const ports: { port: number; socket: string }[] = [];
    for (const port of spec.allowPorts) {
      const socket = join(spec.socketDir, `port-${port}.sock`);
      rmSync(socket, { force: true });
      const server = createServer((s) => pipeTo(s, connect(port, "127.0.0.1")));
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socket, () => resolve());
      });
      relays.push(server);
      ports.push({ port, socket });
    }
    child = spawn(
      "unshare",
      [
        "-n",
        "--",
        process.execPath,
        "-e",
        NS_INIT,
        JSON.stringify({ command: spec.command, cwd: spec.cwd, env: spec.env, ports }),
      ],
      {
        cwd: spec.cwd,
        env: { PATH: spec.env.PATH ?? process.env.PATH ?? "/usr/bin:/bin" },
        stdio: [...stdio],
        detached: true,
      },
    );
  } else {
    child = spawn("/bin/sh", ["-c", spec.command], { cwd: spec.cwd, env: spec.env, stdio: [...stdio], detached: true });
  }
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => resolve(code ?? (signal === "SIGKILL" ? 137 : 143)));
  }).finally(() => {
    for (const r of relays) r.close();
  });
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  return {
    child,
    exited,
    stop: async (graceMs) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
