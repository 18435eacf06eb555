/**
 * Entry point of a compiled job process: `dist/bundles/grid-child.js` is this file bundled, and
 * `dist/bundles/grid-child-body.cjs` beside it is job-child-main.ts with everything it imports,
 * npm packages included (scripts/build.mjs), as one CommonJS file. The launcher compiles the body
 * with a V8 code cache kept in `dist/bundles/code-cache/` (`code-cache.ts`): a job process then
 * deserializes the bytecode of the runner instead of parsing and compiling it. A process that
 * found no usable cache writes one when it is told to stop (SIGTERM, which the pool sends when a
 * grid ends) if it ran a job, with everything it compiled while running jobs; then it ends by that
 * same signal, as before. Never run from sources (tests fork job-child-main.ts).
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { compileWithCodeCache, saveWhenTerminated } from "./code-cache.js";

/**
 * the wrapper's parameters: CommonJS's, then what scripts/build.mjs turned the body's
 * `import.meta.url` and `import()` into
 */
const PARAMS = ["exports", "require", "module", "__filename", "__dirname", "__reliveModuleUrl", "__reliveImport"];

const body = fileURLToPath(new URL("./grid-child-body.cjs", import.meta.url));
const compiled = compileWithCodeCache(body, PARAMS, fileURLToPath(new URL("./code-cache/", import.meta.url)));
// a process stopped before it ran a job (a grid with nothing left for it) would write a cache of start-up alone
let jobs = 0;
process.on("message", (m: unknown) => {
  if (typeof m === "object" && m !== null && (m as { type?: unknown }).type === "run") jobs++;
});
saveWhenTerminated(compiled, () => jobs > 0);
const module = { exports: {} };
compiled.fn(
  module.exports,
  createRequire(body),
  module,
  body,
  dirname(body),
  // the body's import.meta.url is this file's URL: same folder, and a `.js` name (compiled code)
  import.meta.url,
  // this module's own import(): specifiers resolve from this folder, the body's
  (specifier: string) => import(specifier),
);
