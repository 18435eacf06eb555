import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC
} from "quickjs-emscripten";
const MIN_LINEAR_MEMORY_BYTES = 16 * 1024 * 1024;
const PAGE = 64 * 1024;
let compiled = null;
function compiledModule() {
  if (compiled === null) {
    const req = createRequire(createRequire(import.meta.url).resolve("quickjs-emscripten"));
    const path = req.resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    compiled = WebAssembly.compile(readFileSync(path));
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}
function linearMemoryPages(capBytes) {
  return Math.max(MIN_LINEAR_MEMORY_BYTES, Math.ceil(capBytes / PAGE) * PAGE) / PAGE;
}
async function newSandboxInstance(capBytes) {
  const wasmModule = await compiledModule();
  const memory = new WebAssembly.Memory({
    initial: MIN_LINEAR_MEMORY_BYTES / PAGE,
    maximum: linearMemoryPages(capBytes)
  });
  const stderr = [];
  const keep = (line) => {
    stderr.push(String(line));
    if (stderr.length > 8) stderr.shift();
  };
  const io = {
    print: keep,
    printErr: keep
  };
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, {
      wasmModule,
      wasmMemory: memory,
      emscriptenModule: io,
      log: () => {
      }
    })
  );
  return { module, memory, stderr };
}
export {
  MIN_LINEAR_MEMORY_BYTES,
  linearMemoryPages,
  newSandboxInstance
};
//# sourceMappingURL=quickjs-instance.js.map
