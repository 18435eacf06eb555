import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { type MessagePort, Worker } from "node:worker_threads";
import { currentBuildFile } from "../common/current-build.js";

/**
 * A worker thread running one function of a module file of this folder, compiled (dist/) or from
 * sources (the compiled twin while the build is current, else through tsx, as the grid's job child does). A small CommonJS bootstrap imports the
 * module and calls the function with `data`; when the module cannot be loaded it posts the error
 * on `data.port` and runs `onLoadFailure`, CommonJS with `s` the Int32Array over `data.shared`
 * (each caller's shared-memory protocol says how a failure is signalled).
 */

const COMPILED = import.meta.url.endsWith(".js");
/** sources: the bootstrap registers the TypeScript loader (tsx) in the worker before importing the module */
const TSX = COMPILED
  ? null
  : pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("tsx/esm/api")), "index.mjs")).href;

export interface ModuleWorkerData {
  shared: SharedArrayBuffer;
  port: MessagePort;
}

/**
 * Starts `run(data)` of `src/world/<file>` (`file` without extension) on a new worker thread;
 * `data.port` is transferred. From the sources it runs the compiled module while the checkout's
 * build is current (`currentBuildFile`), else the source through tsx (`sources`: always through
 * tsx, for tests of that path).
 */
export function startModuleWorker(
  file: string,
  run: string,
  data: ModuleWorkerData,
  onLoadFailure: string,
  o: { sources?: boolean } = {},
): Worker {
  const built = COMPILED || o.sources ? null : currentBuildFile(`world/${file}.js`);
  /** `../world/` so the path also resolves from the one-file bundles in dist/bundles/ */
  const module =
    built !== null
      ? pathToFileURL(built).href
      : new URL(`../world/${file}${COMPILED ? ".js" : ".ts"}`, import.meta.url).href;
  const boot = `
const { workerData } = require("node:worker_threads");
(workerData.tsx
  ? import(workerData.tsx).then((api) => api.tsImport(workerData.module, workerData.module))
  : import(workerData.module)
)
  .then((m) => m[${JSON.stringify(run)}](workerData.data))
  .catch((e) => {
    const s = new Int32Array(workerData.data.shared);
    workerData.data.port.postMessage({ error: "cannot start the worker: " + ((e && e.message) || String(e)) });
    ${onLoadFailure}
  });
`;
  return new Worker(boot, {
    eval: true,
    // plain CommonJS bootstrap: the parent's flags (e.g. --input-type=module) must not reach it
    execArgv: [],
    workerData: { module, tsx: built !== null ? null : TSX, data },
    transferList: [data.port],
  });
}
