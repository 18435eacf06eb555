import { z } from "zod";
import { defineTool, ok, reject, type ToolContext, type ToolDef, type ToolResult } from "../tool.js";
import { type ActionResult, BrowserInputError, type BrowserSession, type Target } from "./browser-session.js";
import {
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_NAVIGATE,
  BROWSER_SELECT,
  BROWSER_SNAPSHOT,
  BROWSER_SUBMIT,
} from "./browser-tool-names.js";
import type { WebEffect } from "./web-effects.js";

const MAX_TEXT = 10_000;
const MAX_BLOCKED_SHOWN = 10;

const targetFields = {
  ref: z.string().optional().describe('element ref from the latest snapshot, e.g. "e7"'),
  selector: z.string().optional().describe("a Playwright selector instead of a ref (CSS, text=..., role=...)"),
};
const oneTarget = (a: { ref?: string | undefined; selector?: string | undefined }) =>
  (a.ref === undefined) !== (a.selector === undefined);
const oneTargetMessage = { message: "give exactly one of ref or selector" };

/**
 * Arguments of an acting tool: the agent's fields, plus `effects`, which the handler fills with what
 * the action did on the web. The tool runtime ledgers a commit tool's parsed arguments after the
 * handler ran, so the commitment event carries the effects (see README: "What is ledgered").
 */
const withEffects = <T extends object>(a: T) => ({ ...a, effects: [] as WebEffect[] });

const NavigateArgs = z.object({ url: z.string().describe("http://<host>.relive.test/<path>") }).strict();
const TargetArgs = z.object(targetFields).strict().refine(oneTarget, oneTargetMessage);
const FillArgs = z
  .object({ ...targetFields, text: z.string().max(MAX_TEXT).describe("the text to type (replaces the field's value)") })
  .strict()
  .refine(oneTarget, oneTargetMessage);
const SelectArgs = z
  .object({ ...targetFields, value: z.string().describe("the option's value or its visible label") })
  .strict()
  .refine(oneTarget, oneTargetMessage);

const targetOf = (a: { ref?: string | undefined; selector?: string | undefined }): Target =>
  a.ref !== undefined ? { ref: a.ref } : { selector: a.selector as string };

/** What an action returns to the agent: the new page and a summary of its web effects. */
function actionValue(r: ActionResult) {
  const blocked = [...new Set(r.effects.flatMap((e) => (e.kind === "blocked" ? [e.url] : [])))];
  return {
    ...r.page,
    requests: r.effects.filter((e) => e.kind === "request").length,
    blocked: blocked.slice(0, MAX_BLOCKED_SHOWN),
    blocked_count: r.effects.filter((e) => e.kind === "blocked").length,
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

async function perform(effects: WebEffect[], c: ToolContext, action: () => Promise<ActionResult>): Promise<ToolResult> {
  try {
    const r = await action();
    effects.push(...r.effects);
    // every request the browser blocked is also a ledgered notice of its own
    for (const e of r.effects)
      if (e.kind === "blocked") c.note?.("web_blocked", `${e.method} ${e.url} (${e.resource})`);
    return ok(actionValue(r));
  } catch (e) {
    if (e instanceof BrowserInputError) return reject(e.message);
    throw e;
  }
}

/**
 * The browser tool set over one run's session: `browser_navigate(url)`, `browser_snapshot()`,
 * `browser_click(ref|selector)`, `browser_fill(ref|selector, text)`, `browser_select(ref|selector,
 * value)`, `browser_submit(ref|selector)`. Each acting tool returns the new page (accessibility
 * snapshot with refs, `rendered_at` in simulated time) and is priced `price_usd` per call.
 */
export function browserTools(session: BrowserSession, o: { price_usd: number; hostsDoc: string }): ToolDef[] {
  const priced = o.price_usd > 0 ? `Costs $${o.price_usd} per call.` : "Free.";
  const returns =
    "Returns the page after the action: {url, title, status, rendered_at (simulated time), snapshot (accessibility " +
    "tree with [ref=…] for the element tools), truncated, requests, blocked, blocked_count}.";
  const navigate = defineTool({
    name: BROWSER_NAVIGATE,
    description: `Open a URL in the browser. The browser reaches only this task's hosts: ${o.hostsDoc}. ${returns} ${priced}`,
    args: NavigateArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.navigate(a.url)),
  });
  const snapshot = defineTool({
    name: BROWSER_SNAPSHOT,
    description:
      "Free. The current page again (no action, no clock move): {url, title, status, rendered_at, snapshot, truncated}.",
    args: z.object({}).strict(),
    kind: "meta",
    run: async () => ok(await session.snapshot()),
  });
  const click = defineTool({
    name: BROWSER_CLICK,
    description: `Click an element (a link, a button, a checkbox). ${returns} ${priced}`,
    args: TargetArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.click(targetOf(a))),
  });
  const fill = defineTool({
    name: BROWSER_FILL,
    description: `Type text into a text field (replacing its value). ${returns} ${priced}`,
    args: FillArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.fill(targetOf(a), a.text)),
  });
  const select = defineTool({
    name: BROWSER_SELECT,
    description: `Choose an option of a drop-down (by value or visible label). ${returns} ${priced}`,
    args: SelectArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.select(targetOf(a), a.value)),
  });
  const submit = defineTool({
    name: BROWSER_SUBMIT,
    description: `Submit the form that contains the element (its submit button is clicked). ${returns} ${priced}`,
    args: TargetArgs.transform(withEffects),
    kind: "commit",
    domain: "browser",
    price: () => o.price_usd,
    run: (a, c) => perform(a.effects, c, () => session.submit(targetOf(a))),
  });
  return [navigate, snapshot, click, fill, select, submit];
}

// the names and the effects reader are also importable from here (scorers may import the lighter modules directly)
export {
  BROWSER_ACTION_TOOLS,
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_NAVIGATE,
  BROWSER_SELECT,
  BROWSER_SNAPSHOT,
  BROWSER_SUBMIT,
} from "./browser-tool-names.js";
export { effectsOfCommitment } from "./web-effects.js";
