import { newQuickJSWASMModule } from "quickjs-emscripten";
let current = null;
function quickjsInstance() {
  if (current === null) current = newQuickJSWASMModule();
  return current;
}
async function retireInstance(module) {
  if (current !== null && await current === module) current = null;
}
export {
  quickjsInstance,
  retireInstance
};
//# sourceMappingURL=quickjs-instance.js.map
