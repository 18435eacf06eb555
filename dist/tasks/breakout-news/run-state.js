import { ClaimBook } from "./claim-book.js";
import { windowMs } from "./params.js";
const books = /* @__PURE__ */ new WeakMap();
function claimBookOf(ctx) {
  let b = books.get(ctx);
  if (!b) {
    b = new ClaimBook(windowMs(ctx.params));
    books.set(ctx, b);
  }
  return b;
}
export {
  claimBookOf
};
//# sourceMappingURL=run-state.js.map
