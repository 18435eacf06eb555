import { z } from "zod";
import { defineTool, ok, reject } from "../tool.js";
import { BrowserInputError } from "./browser-session.js";
import {
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_NAVIGATE,
  BROWSER_SELECT,
  BROWSER_SNAPSHOT,
  BROWSER_SUBMIT
} from "./browser-tool-names.js";
const MAX_TEXT = 1e4;
const MAX_BLOCKED_SHOWN = 10;
const targetFields = {
  ref: z.string().optional().describe('element ref from the latest snapshot, e.g. "e7"'),
  selector: z.string().optional().describe("a Playwright selector instead of a ref (CSS, text=..., role=...)")
};
const oneTarget = (a) => a.ref === void 0 !== (a.selector === void 0);
const oneTargetMessage = { message: "give exactly one of ref or selector" };
const withEffects = (a) => ({ ...a, effects: [] });
const NavigateArgs = z.object({ url: z.string().describe("http://<host>.relive.test/<path>") }).strict();
const TargetArgs = z.object(targetFields).strict().refine(oneTarget, oneTargetMessage);
const FillArgs = z.object({ ...targetFields, text: z.string().max(MAX_TEXT).describe("the text to type (replaces the field's value)") }).strict().refine(oneTarget, oneTargetMessage);
const SelectArgs = z.object({ ...targetFields, value: z.string().describe("the option's value or its visible label") }).strict().refine(oneTarget, oneTargetMessage);
const targetOf = (a) => a.ref !== void 0 ? { ref: a.ref } : { selector: a.selector };
function actionValue(r) {
  const blocked = [...new Set(r.effects.flatMap((e) => e.kind === "blocked" ? [e.url] : []))];
  return {
    ...r.page,
    requests: r.effects.filter((e) => e.kind === "request").length,
    blocked: blocked.slice(0, MAX_BLOCKED_SHOWN),
    blocked_count: r.effects.filter((e) => e.kind === "blocked").length,
    ...r.error !== void 0 ? { error: r.error } : {}
  };
}
async function perform(effects, c, action) {
  try {
    const r = await action();
    effects.push(...r.effects);
    for (const e of r.effects)
      if (e.kind === "blocked") c.note?.("web_blocked", `${e.method} ${e.url} (${e.resource})`);
    return ok(actionValue(r));
  } catch (e) {
    if (e instanceof BrowserInputError) return reject(e.message);
    throw e;
  }
}
function browserTools(session, o) {
  const priced = o.price_usd > 0 ? `Costs $${o.price_usd} per call.` : "Free.";
  const returns = "Returns the page after the action: {url, title, status, rendered_at (simulated time), snapshot (accessibility tree with [ref=\u2026] for the element tools), truncated, requests, blocked, blocked_count}.";
  const navigate = defineTool({
    name: BROWSER_NAVIGATE,
    description: `Open a URL in the browser. The browser reaches only this task's hosts: ${o.hostsDoc}. ${returns} ${priced}`,
    args: NavigateArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.navigate(a.url))
  });
  const snapshot = defineTool({
    name: BROWSER_SNAPSHOT,
    description: "Free. The current page again (no action, no clock move): {url, title, status, rendered_at, snapshot, truncated}.",
    args: z.object({}).strict(),
    kind: "meta",
    run: async () => ok(await session.snapshot())
  });
  const click = defineTool({
    name: BROWSER_CLICK,
    description: `Click an element (a link, a button, a checkbox). ${returns} ${priced}`,
    args: TargetArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.click(targetOf(a)))
  });
  const fill = defineTool({
    name: BROWSER_FILL,
    description: `Type text into a text field (replacing its value). ${returns} ${priced}`,
    args: FillArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.fill(targetOf(a), a.text))
  });
  const select = defineTool({
    name: BROWSER_SELECT,
    description: `Choose an option of a drop-down (by value or visible label). ${returns} ${priced}`,
    args: SelectArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.select(targetOf(a), a.value))
  });
  const submit = defineTool({
    name: BROWSER_SUBMIT,
    description: `Submit the form that contains the element (its submit button is clicked). ${returns} ${priced}`,
    args: TargetArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.submit(targetOf(a)))
  });
  return [navigate, snapshot, click, fill, select, submit];
}
import {
  BROWSER_ACTION_TOOLS,
  BROWSER_CLICK as BROWSER_CLICK2,
  BROWSER_FILL as BROWSER_FILL2,
  BROWSER_NAVIGATE as BROWSER_NAVIGATE2,
  BROWSER_SELECT as BROWSER_SELECT2,
  BROWSER_SNAPSHOT as BROWSER_SNAPSHOT2,
  BROWSER_SUBMIT as BROWSER_SUBMIT2
} from "./browser-tool-names.js";
import { effectsOfCommitment } from "./web-effects.js";
export {
  BROWSER_ACTION_TOOLS,
  BROWSER_CLICK2 as BROWSER_CLICK,
  BROWSER_FILL2 as BROWSER_FILL,
  BROWSER_NAVIGATE2 as BROWSER_NAVIGATE,
  BROWSER_SELECT2 as BROWSER_SELECT,
  BROWSER_SNAPSHOT2 as BROWSER_SNAPSHOT,
  BROWSER_SUBMIT2 as BROWSER_SUBMIT,
  browserTools,
  effectsOfCommitment
};
//# sourceMappingURL=browser-tools.js.map
