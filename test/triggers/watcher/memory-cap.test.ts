import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The memory cap counts real bytes (issue 11, harness.md "Sandbox"): typed arrays and strings live
 * in the sandbox's own capped WebAssembly memory, so a program under a 16 MiB cap is stopped while
 * the host's resident memory barely grows. Measured in a child process (a fresh heap, nothing else
 * running in it); the figures are printed for the report.
 */

const MiB = 1024 * 1024;
const src = (f: string) => pathToFileURL(resolve(import.meta.dirname, "../../../src", f)).href;

const BOMBS = [
  "const a = [];\nfor (;;) a.push(new Uint8Array(1e6));",
  "const a = [];\nfor (;;) a.push(new Float64Array(1e5).fill(1.5));",
  "const s = 'x'.repeat(1e9);",
  "const a = [];\nfor (;;) a.push(new Array(1000).fill('yy').join('') + a.length);",
  "new ArrayBuffer(2 ** 30);",
];

const CHILD = `
const { Kernel } = await import(${JSON.stringify(src("kernel/kernel.ts"))});
const { runProgram } = await import(${JSON.stringify(src("triggers/watcher/run-program.ts"))});
const { Workspace } = await import(${JSON.stringify(src("triggers/watcher/workspace.ts"))});
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const BOMBS = ${JSON.stringify(BOMBS)};
const ws = new Workspace(mkdtempSync(join(tmpdir(), "relive-memcap-")));
async function run(source) {
  const k = new Kernel({ start: 0, end: 86400000 });
  let end;
  k.spawn("agent", async (actor) => {
    end = await runProgram({ source, path: "bomb.js", actor, deadline: null, wrappers: {}, workspace: ws, memoryLimitBytes: 16 * 1024 * 1024 });
  });
  await k.run();
  return end;
}
const peak = () => process.resourceUsage().maxRSS * 1024;
// warm up: compile the WebAssembly module and load the code paths once
await run("await envkit.wait(envkit.now() + 1000);");
const rss0 = process.memoryUsage().rss;
const one = await run(BOMBS[0]);
const oneGrowth = peak() - rss0;
const ends = [];
for (let i = 0; i < 20; i++) ends.push(await run(BOMBS[i % BOMBS.length]));
const twentyGrowth = peak() - rss0;
const after = await run("await envkit.wait(envkit.now() + 1000);\\nenvkit.handover('fine');");
console.log(JSON.stringify({ one, oneGrowth, ends, twentyGrowth, after }));
`;

describe("the sandbox memory cap counts real bytes", () => {
  it("a program under a 16 MiB cap is stopped with host RSS growth < 64 MiB; 20 in a row < 128 MiB", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1) as string);
    console.log(
      `sandbox memory cap 16 MiB: one bomb grew the child's peak RSS by ${(out.oneGrowth / MiB).toFixed(1)} MiB, 20 bombs by ${(out.twentyGrowth / MiB).toFixed(1)} MiB`,
    );
    expect(out.one).toEqual({
      kind: "error",
      error: expect.stringMatching(/^InternalError: out of memory \(memory cap 16 MB\)/),
    });
    expect(out.ends).toHaveLength(20);
    for (const e of out.ends)
      expect(e).toEqual({
        kind: "error",
        error: expect.stringMatching(/^InternalError: out of memory \(memory cap 16 MB\)/),
      });
    expect(out.oneGrowth).toBeLessThan(64 * MiB);
    expect(out.twentyGrowth).toBeLessThan(128 * MiB);
    expect(out.after).toEqual({ kind: "handover", payload: "fine" });
  }, 900_000);
});
