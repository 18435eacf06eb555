import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import vm from "node:vm";

/**
 * A CommonJS file compiled through `vm.Script` with a V8 code cache kept on disk, so a process
 * that loads it again deserializes the bytecode instead of parsing and compiling the source
 * (Node 20 has no `module.enableCompileCache`). The grid job processes load their one-file bundle
 * this way (`job-child-launcher.ts`).
 *
 * A cache file is named `<file name>-<source hash>-<environment hash>.v8cache`: the sha256 of the
 * file's text, and of the Node version, architecture, exec arguments and NODE_OPTIONS (V8 rejects
 * a cache made under other flags or another V8 itself; keying by them keeps two environments from
 * overwriting each other's file). V8's own check of a cache against its source compares only the
 * source's length, so the source hash in the name is what keeps a cache of an older build (a
 * changed bundle, even of the same length) from ever being used.
 */

/** What became of the cache when the file was compiled. */
export type CodeCacheState = "used" | "absent" | "rejected";

export interface CodeCachedScript {
  /** the file's module function, called with the wrapper's parameters */
  readonly fn: (...args: unknown[]) => unknown;
  readonly state: CodeCacheState;
  /** the cache file of this source in this environment */
  readonly cachePath: string;
  /**
   * Writes the code cache of everything compiled so far (call it late: functions compiled lazily
   * after the call are not in it), atomically, and removes the cache files of other sources of the
   * same file name. False when the directory cannot be written (the next process compiles as usual).
   */
  save(): boolean;
}

export const CODE_CACHE_EXT = ".v8cache";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** the environment part of a cache file's name: what V8 checks besides the source, plus how this process was started */
export function codeCacheEnvironmentKey(): string {
  return sha256(
    JSON.stringify([process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? ""]),
  ).slice(0, 8);
}

/** the cache file of `source` (the text of `file`, or its bytes) in `cacheDir` */
export function codeCachePath(cacheDir: string, file: string, source: string | Uint8Array): string {
  const stem = basename(file, extname(file));
  return join(cacheDir, `${stem}-${sha256(source).slice(0, 16)}-${codeCacheEnvironmentKey()}${CODE_CACHE_EXT}`);
}

/**
 * Compiles the CommonJS file `file` as `(function (<params>) { <source> })` with the code cache
 * from `cacheDir` when one exists for its exact source. The file must not call `import()` itself:
 * a script V8 loads from a code cache has lost the options Node's dynamic import needs (V8 11), so
 * the call would fail only when the cache is used. Pass an import function among the parameters
 * instead (scripts/build.mjs routes the job process bundle's `import()` calls to one).
 */
export function compileWithCodeCache(file: string, params: readonly string[], cacheDir: string): CodeCachedScript {
  const bytes = readFileSync(file);
  const cachePath = codeCachePath(cacheDir, file, bytes); // hashing the bytes spares encoding the text again
  const source = bytes.toString("utf8");
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (${params.join(", ")}) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const state: CodeCacheState = cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used";
  const fn = script.runInThisContext() as (...args: unknown[]) => unknown;
  const save = (): boolean => {
    try {
      const data = script.createCachedData();
      mkdirSync(cacheDir, { recursive: true });
      const tmp = `${cachePath}.${process.pid}.tmp`;
      writeFileSync(tmp, data);
      renameSync(tmp, cachePath);
      removeOtherSources(cacheDir, file, cachePath);
      return true;
    } catch {
      return false;
    }
  };
  return { fn, state, cachePath, save };
}

/**
 * Writes the cache when this process is told to stop (SIGTERM), unless it was loaded from one or
 * `worthSaving` says no (a process that did no work has compiled little beyond start-up): by then
 * the cache holds everything the process compiled while it worked. The process then ends by that
 * same signal (no listener is left, so the default action applies), as it would have without the
 * listener.
 */
export function saveWhenTerminated(compiled: CodeCachedScript, worthSaving: () => boolean = () => true): void {
  if (compiled.state === "used") return;
  process.once("SIGTERM", () => {
    if (worthSaving()) compiled.save();
    process.kill(process.pid, "SIGTERM");
  });
}

/** the cache files of the same file name made from other sources (older builds) */
function removeOtherSources(cacheDir: string, file: string, keep: string): void {
  const stem = basename(file, extname(file));
  const sourcePart = basename(keep).slice(stem.length + 1, stem.length + 17);
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith(`${stem}-`) || !name.endsWith(CODE_CACHE_EXT)) continue;
    if (name.slice(stem.length + 1, stem.length + 17) !== sourcePart) rmSync(join(cacheDir, name), { force: true });
  }
}
