import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CODE_CACHE_EXT, codeCachePath, compileWithCodeCache } from "../../../src/run/grid/code-cache.js";

const PARAMS = ["exports", "require", "module"];
/** a CommonJS body whose answer is `tag` (every tag of one length gives sources of one length) */
const body = (tag: string) => `"use strict";\nmodule.exports.answer = () => ${JSON.stringify(tag)} + (6 * 7);\n`;

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), "relive-code-cache-"));
  const file = join(dir, "body.cjs");
  return { dir, file, cacheDir: join(dir, "code-cache") };
};
let copies = 0;
/**
 * Compiles and runs `file` from a copy in a folder of its own: V8 keeps the scripts it compiled in
 * memory, keyed by source and file name, and a second compile of the same file in this process
 * would be served from there, never reading the cache on disk. The copy has the same file name
 * (the cache's name is made from it).
 */
const run = (given: string, cacheDir: string) => {
  const file = join(mkdtempSync(join(tmpdir(), `relive-code-cache-copy${copies++}-`)), basename(given));
  copyFileSync(given, file);
  const compiled = compileWithCodeCache(file, PARAMS, cacheDir);
  const module = { exports: {} as { answer?: () => string } };
  compiled.fn(module.exports, createRequire(file), module);
  return { compiled, answer: module.exports.answer!() };
};

describe("V8 code cache of the job process bundle", () => {
  it("is written on save and used by the next compile of the same source", () => {
    const { file, cacheDir } = setup();
    writeFileSync(file, body("AAAA"));
    const first = run(file, cacheDir);
    expect(first.compiled.state).toBe("absent");
    expect(first.answer).toBe("AAAA42");
    expect(first.compiled.save()).toBe(true);
    expect(existsSync(first.compiled.cachePath)).toBe(true);
    const again = run(file, cacheDir);
    expect(again.compiled.state).toBe("used");
    expect(again.answer).toBe("AAAA42");
  });

  it("is never used for a changed bundle, even one of the same length (V8 itself checks only the length)", () => {
    const { file, cacheDir } = setup();
    writeFileSync(file, body("AAAA"));
    expect(run(file, cacheDir).compiled.save()).toBe(true);
    writeFileSync(file, body("BBBB")); // same length, other code
    const changed = run(file, cacheDir);
    expect(changed.compiled.state).toBe("absent");
    expect(changed.answer).toBe("BBBB42");
    // saving the new build's cache drops the old build's file
    expect(changed.compiled.save()).toBe(true);
    expect(readdirSync(cacheDir)).toEqual([changed.compiled.cachePath.split("/").pop()]);
    expect(run(file, cacheDir).answer).toBe("BBBB42");
  });

  it("keeps other environments' caches of the same build, and is refused by V8 when it does not fit", () => {
    const { file, cacheDir } = setup();
    writeFileSync(file, body("AAAA"));
    const first = run(file, cacheDir).compiled;
    expect(first.save()).toBe(true);
    // a cache of this build under another Node (another environment key) stays
    const other = first.cachePath.replace(/-[0-9a-f]{8}\.v8cache$/, `-00000000${CODE_CACHE_EXT}`);
    writeFileSync(other, "not a cache");
    expect(first.save()).toBe(true);
    expect(existsSync(other)).toBe(true);
    // garbage under this environment's name: V8 rejects it and the run compiles from source
    writeFileSync(first.cachePath, "not a cache either");
    const rejected = run(file, cacheDir);
    expect(rejected.compiled.state).toBe("rejected");
    expect(rejected.answer).toBe("AAAA42");
  });

  it("names caches by the source's hash, not its length or the file's times", () => {
    const { dir, file } = setup();
    expect(codeCachePath(dir, file, body("AAAA"))).not.toBe(codeCachePath(dir, file, body("BBBB")));
    expect(codeCachePath(dir, file, body("AAAA"))).toBe(codeCachePath(dir, file, body("AAAA")));
  });

  it("save reports false (and the run goes on) when the cache folder cannot be made", () => {
    const { dir, file } = setup();
    writeFileSync(file, body("AAAA"));
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const r = run(file, join(blocker, "code-cache"));
    expect(r.answer).toBe("AAAA42");
    expect(r.compiled.save()).toBe(false);
  });

  it("runs the file's dynamic imports through the import function it is given, from the cache too", async () => {
    const { dir, file, cacheDir } = setup();
    writeFileSync(join(dir, "dep.mjs"), "export const v = 42;\n");
    // as scripts/build.mjs writes the body: import() routed to a parameter
    writeFileSync(file, `module.exports.load = () => __reliveImport("./dep.mjs");\n`);
    const load = async (f: string) => {
      const compiled = compileWithCodeCache(f, [...PARAMS, "__reliveImport"], cacheDir);
      const module = { exports: {} as { load?: () => Promise<{ v: number }> } };
      const importFrom = (s: string) => import(pathToFileURL(join(dir, s)).href);
      compiled.fn(module.exports, createRequire(f), module, importFrom);
      return { compiled, v: (await module.exports.load!()).v };
    };
    const fresh = await load(file);
    expect(fresh).toMatchObject({ v: 42, compiled: { state: "absent" } });
    expect(fresh.compiled.save()).toBe(true);
    // a copy of the same source under the same name, so V8's in-memory script cache is not hit
    const copy = join(mkdtempSync(join(tmpdir(), "relive-code-cache-copy-")), "body.cjs");
    copyFileSync(file, copy);
    expect(await load(copy)).toMatchObject({ v: 42, compiled: { state: "used" } });
  });

  it("a process that found no cache writes it on SIGTERM (if it worked), then still ends by SIGTERM; the next one uses it", async () => {
    const { dir, file, cacheDir } = setup();
    writeFileSync(file, body("AAAA"));
    const script = join(dir, "proc.mts");
    const mod = pathToFileURL(join(__dirname, "../../../src/run/grid/code-cache.ts")).href;
    writeFileSync(
      script,
      `import { createRequire } from "node:module";
import { compileWithCodeCache, saveWhenTerminated } from ${JSON.stringify(mod)};
const file = ${JSON.stringify(file)};
const compiled = compileWithCodeCache(file, ["exports", "require", "module"], ${JSON.stringify(cacheDir)});
saveWhenTerminated(compiled, () => process.env.WORKED === "1");
const module = { exports: {} };
compiled.fn(module.exports, createRequire(file), module);
console.log(compiled.state + " " + module.exports.answer());
setInterval(() => {}, 1000);
`,
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const start = (worked = true) => {
      const child = spawn(process.execPath, ["--import", tsx, script], {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, WORKED: worked ? "1" : "0" },
      });
      const line = new Promise<string>((resolve) =>
        child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())),
      );
      const exit = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_c, s) => resolve(s)));
      return { child, line, exit };
    };
    // a process that did no work writes nothing, and still ends by SIGTERM
    const idle = start(false);
    expect(await idle.line).toBe("absent AAAA42");
    idle.child.kill("SIGTERM");
    expect(await idle.exit).toBe("SIGTERM");
    expect(existsSync(cacheDir)).toBe(false);
    const a = start();
    expect(await a.line).toBe("absent AAAA42");
    a.child.kill("SIGTERM");
    expect(await a.exit).toBe("SIGTERM");
    const written = readdirSync(cacheDir).filter((n) => n.endsWith(CODE_CACHE_EXT));
    expect(written).toHaveLength(1);
    const mtime = statSync(join(cacheDir, written[0]!)).mtimeMs;
    const b = start();
    expect(await b.line).toBe("used AAAA42");
    b.child.kill("SIGTERM");
    expect(await b.exit).toBe("SIGTERM");
    // a process that used the cache leaves it alone
    expect(statSync(join(cacheDir, written[0]!)).mtimeMs).toBe(mtime);
  }, 60_000);
});
