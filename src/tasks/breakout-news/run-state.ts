import type { TaskRunContext } from "../task.js";
import { ClaimBook } from "./claim-book.js";
import { type BreakoutNewsParams, windowMs } from "./params.js";

/**
 * Tool state of one run, shared by everything built from the same run context: the notify tool's
 * claim book (one per run, shared by every actor of the run) and the `self` labels that read it.
 */
const books = new WeakMap<object, ClaimBook>();

export function claimBookOf(ctx: TaskRunContext<BreakoutNewsParams>): ClaimBook {
  let b = books.get(ctx);
  if (!b) {
    b = new ClaimBook(windowMs(ctx.params));
    books.set(ctx, b);
  }
  return b;
}
