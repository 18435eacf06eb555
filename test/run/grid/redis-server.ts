import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";

export const REDIS_SERVER = "/usr/bin/redis-server";
export const HAVE_REDIS = existsSync(REDIS_SERVER);

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });

/** PONG from the server, retried until it answers */
async function waitForRedis(port: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1", () => s.write("PING\r\n"));
      s.once("data", (d) => {
        s.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A private, non-persistent redis-server on a loopback port (the caller kills it). */
export async function startRedisServer(port?: number): Promise<{ port: number; url: string; proc: ChildProcess }> {
  const p = port ?? (await freePort());
  const proc = spawn(
    REDIS_SERVER,
    ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tmpdir()],
    { stdio: "ignore" },
  );
  await waitForRedis(p);
  return { port: p, url: `redis://127.0.0.1:${p}`, proc };
}

export async function stopRedisServer(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGKILL");
  await gone;
}
