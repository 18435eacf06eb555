import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type EmscriptenModuleLoaderOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from "quickjs-emscripten";

/**
 * A fresh QuickJS WebAssembly instance (the synchronous release build, the one
 * `newQuickJSWASMModule()` loads) for each watcher program, in its own linear memory.
 *
 * Why one instance per program, not one shared instance:
 * - **Real byte cap.** In the WebAssembly build `runtime.setMemoryLimit` does not see the size of
 *   typed arrays or long strings (there is no `malloc_usable_size`), so a program under a 16 MiB
 *   limit could grow the shared linear memory to its 2 GiB maximum. Here the instance gets a
 *   `WebAssembly.Memory` whose `maximum` is the cap: `malloc` fails at the cap and QuickJS throws
 *   `out of memory`. WebAssembly memory never shrinks, so the only way to return it is to drop the
 *   instance, which happens when the program ends.
 * - **Containment.** After an out-of-memory error the instance may be corrupt; interrupting an
 *   async function recursing through `await` makes `runtime.dispose()` abort
 *   (`list_empty(&rt->gc_obj_list)`); C-level recursion can exhaust the host's native stack. Each of
 *   these surfaces as a host exception out of a WebAssembly call (the abort message goes to
 *   `printErr`, which is captured here, never printed). The program's instance is then abandoned;
 *   no other program ever ran in it, and the next program gets a fresh one.
 *
 * The compiled `WebAssembly.Module` is shared (compiling it is the expensive part); instantiating
 * costs a few milliseconds.
 */

/** The build's memory import declares 256 pages (16 MiB) as its minimum. */
export const MIN_LINEAR_MEMORY_BYTES = 16 * 1024 * 1024;
const PAGE = 64 * 1024;

export interface SandboxInstance {
  module: QuickJSWASMModule;
  /** the instance's linear memory (its `maximum` is the byte cap) */
  memory: WebAssembly.Memory;
  /** the last lines the instance wrote to its stderr (abort messages), newest last */
  stderr: string[];
}

let compiled: Promise<WebAssembly.Module> | null = null;

function compiledModule(): Promise<WebAssembly.Module> {
  if (compiled === null) {
    // the .wasm of the variant quickjs-emscripten itself depends on (resolved from its location)
    const req = createRequire(createRequire(import.meta.url).resolve("quickjs-emscripten"));
    const path = req.resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    compiled = WebAssembly.compile(readFileSync(path));
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}

/** Linear-memory pages for a byte cap: the cap rounded up to whole pages, at least the build's minimum. */
export function linearMemoryPages(capBytes: number): number {
  return Math.max(MIN_LINEAR_MEMORY_BYTES, Math.ceil(capBytes / PAGE) * PAGE) / PAGE;
}

/** A new instance whose linear memory can never exceed `capBytes` (or 16 MiB if the cap is smaller). */
export async function newSandboxInstance(capBytes: number): Promise<SandboxInstance> {
  const wasmModule = await compiledModule();
  const memory = new WebAssembly.Memory({
    initial: MIN_LINEAR_MEMORY_BYTES / PAGE,
    maximum: linearMemoryPages(capBytes),
  });
  const stderr: string[] = [];
  const keep = (line: string) => {
    stderr.push(String(line));
    if (stderr.length > 8) stderr.shift();
  };
  // Emscripten reads print/printErr from the loader options (not in quickjs-emscripten's typings)
  const io: EmscriptenModuleLoaderOptions & { print: (s: string) => void; printErr: (s: string) => void } = {
    print: keep,
    printErr: keep,
  };
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, {
      wasmModule,
      wasmMemory: memory,
      emscriptenModule: io,
      log: () => {},
    }),
  );
  return { module, memory, stderr };
}
