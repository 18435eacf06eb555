/** Names of the browser tools (a module of its own so scorers read them without loading Playwright). */
export const BROWSER_NAVIGATE = "browser_navigate";
export const BROWSER_SNAPSHOT = "browser_snapshot";
export const BROWSER_CLICK = "browser_click";
export const BROWSER_FILL = "browser_fill";
export const BROWSER_SELECT = "browser_select";
export const BROWSER_SUBMIT = "browser_submit";

/** The browser tools that act (commit kind: their ledgered arguments carry the action's web effects). */
export const BROWSER_ACTION_TOOLS: readonly string[] = [
  BROWSER_NAVIGATE,
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_SELECT,
  BROWSER_SUBMIT,
];
