const BROWSER_NAVIGATE = "browser_navigate";
const BROWSER_SNAPSHOT = "browser_snapshot";
const BROWSER_CLICK = "browser_click";
const BROWSER_FILL = "browser_fill";
const BROWSER_SELECT = "browser_select";
const BROWSER_SUBMIT = "browser_submit";
const BROWSER_ACTION_TOOLS = [
  BROWSER_NAVIGATE,
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_SELECT,
  BROWSER_SUBMIT
];
export {
  BROWSER_ACTION_TOOLS,
  BROWSER_CLICK,
  BROWSER_FILL,
  BROWSER_NAVIGATE,
  BROWSER_SELECT,
  BROWSER_SNAPSHOT,
  BROWSER_SUBMIT
};
//# sourceMappingURL=browser-tool-names.js.map
