import { newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";

/**
 * The process-wide QuickJS WebAssembly instance (the synchronous release build) that watcher
 * programs run in. Every program gets its own QuickJS runtime and context inside it (separate
 * heaps, separate limits); creating one costs well under a millisecond, so the instance is shared.
 *
 * Some C-level recursion in QuickJS (nested JSON, the parser, deep getter chains) can exhaust the
 * host's native stack before QuickJS's own stack check fires. That surfaces as a host exception
 * thrown out of the WebAssembly call, and leaves that instance's linear stack unbalanced. The
 * program is then ended with an error and the instance is retired: later programs get a fresh one.
 * (Programs already suspended in a retired instance finish there; a retired instance is freed by
 * the garbage collector once nothing references it.)
 */

let current: Promise<QuickJSWASMModule> | null = null;

export function quickjsInstance(): Promise<QuickJSWASMModule> {
  if (current === null) current = newQuickJSWASMModule();
  return current;
}

/** Stop handing out `module` to new programs (no-op if it was already replaced). */
export async function retireInstance(module: QuickJSWASMModule): Promise<void> {
  if (current !== null && (await current) === module) current = null;
}
