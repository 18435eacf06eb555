import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { REPO } from "../helpers.js";

export interface Proc {
  child: ChildProcess;
  lines: string[];
  /** resolves with the first stdout line matching */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  /** everything written to stderr so far */
  stderr(): string;
}

export function relive(args: string[]): Proc {
  const child = spawn(process.execPath, [join(REPO, "bin/relive.js"), ...args], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const lines: string[] = [];
  const watchers: { re: RegExp; resolve(l: string): void }[] = [];
  let buf = "";
  let errBuf = "";
  child.stderr?.on("data", (d: Buffer) => {
    errBuf += d.toString();
  });
  child.stdout?.on("data", (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const w of [...watchers])
        if (w.re.test(line)) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    stderr: () => errBuf,
    waitFor: (re, timeoutMs = 600_000) => {
      const seen = lines.find((l) => re.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no line matching ${re} within ${timeoutMs} ms; stdout:\n${lines.join("\n")}\nstderr:\n${errBuf}`,
              ),
            ),
          timeoutMs,
        );
        watchers.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(
            new Error(`process exited before a line matching ${re}; stdout:\n${lines.join("\n")}\nstderr:\n${errBuf}`),
          );
        });
      });
    },
  };
}

/** runs a CLI command to its end; resolves with its stdout */
export async function reliveDone(args: string[]): Promise<string> {
  const p = relive(args);
  const code = await p.exited;
  if (code !== 0)
    throw new Error(`relive ${args.join(" ")} exited with ${code}:\n${p.lines.join("\n")}\nstderr:\n${p.stderr()}`);
  return p.lines.join("\n");
}
