const ENVKIT_DTS = "envkit.d.ts";
const SLEEP_TEMPLATE = "sleep.js";
const EXAMPLE_WATCHER = "watcher.example.js";
function seedWorkspace(ws, o) {
  ws.writeFile(ENVKIT_DTS, envkitDts(o.taskId, o.wrapperDocs));
  ws.writeFile(SLEEP_TEMPLATE, SLEEP_JS);
  ws.writeFile(EXAMPLE_WATCHER, o.exampleWatcher.endsWith("\n") ? o.exampleWatcher : `${o.exampleWatcher}
`);
}
const SLEEP_JS = `// sleep.js: the simplest watcher. It waits until WAKE_AT, then hands over to you.
// Copy it, set WAKE_AT, and start it with run_program. A due schedule, the run_program deadline
// or the end of the experiment wakes you earlier (the program then simply stops).
const WAKE_AT = envkit.now() + 60 * 60 * 1000; // e.g. Date.parse("2026-03-02T09:00:00Z")

await envkit.wait(WAKE_AT);
envkit.handover({ note: "sleep.js woke at " + new Date().toISOString() });
`;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k) => IDENT.test(k) ? k : JSON.stringify(k);
function schemaToTs(schema, indent = "") {
  if (schema === true || schema === void 0) return "unknown";
  if (schema === false) return "never";
  if (schema === null || typeof schema !== "object") return "unknown";
  const s = schema;
  if (s.const !== void 0) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((e) => JSON.stringify(e)).join(" | ") || "never";
  const union = s.anyOf ?? s.oneOf;
  if (Array.isArray(union)) return union.map((u) => paren(schemaToTs(u, indent))).join(" | ") || "never";
  if (Array.isArray(s.allOf)) return s.allOf.map((u) => paren(schemaToTs(u, indent))).join(" & ") || "unknown";
  if (Array.isArray(s.type)) return s.type.map((t) => paren(schemaToTs({ ...s, type: t }, indent))).join(" | ");
  switch (s.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (Array.isArray(s.items)) return `[${s.items.map((i) => schemaToTs(i, indent)).join(", ")}]`;
      return `${paren(schemaToTs(s.items, indent))}[]`;
    case "object":
      return objectType(s, indent);
    default:
      return s.properties !== void 0 ? objectType(s, indent) : "unknown";
  }
}
function paren(t) {
  return / [|&] /.test(t) && !t.startsWith("{") ? `(${t})` : t;
}
function objectType(s, indent) {
  const props = Object.entries(s.properties ?? {});
  const req = new Set(s.required ?? []);
  const inner = `${indent}  `;
  const lines = [];
  for (const [k, p] of props) {
    const doc = docOf(p);
    if (doc) lines.push(`${inner}/** ${doc} */`);
    lines.push(`${inner}${key(k)}${req.has(k) ? "" : "?"}: ${schemaToTs(p, inner)};`);
  }
  const extra = s.additionalProperties;
  if (extra !== void 0 && extra !== false)
    lines.push(`${inner}[key: string]: ${extra === true ? "unknown" : schemaToTs(extra, inner)};`);
  if (lines.length === 0) return extra === false ? "Record<string, never>" : "Record<string, unknown>";
  return `{
${lines.join("\n")}
${indent}}`;
}
function docOf(p) {
  if (p === null || typeof p !== "object") return "";
  const s = p;
  const parts = [];
  if (typeof s.description === "string") parts.push(s.description);
  if (s.default !== void 0) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join("; ").replace(/\*\//g, "* /").replace(/\s+/g, " ").trim();
}
function envkitDts(taskId, docs) {
  const sorted = [...docs].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const tools = sorted.map((d) => {
    const doc = d.description.replace(/\*\//g, "* /").trim();
    const params = schemaToTs(d.parameters, "    ");
    return `    /** ${doc} */
    ${key(d.name)}(args: ${params}): Promise<ToolResult>;`;
  }).join("\n");
  return `// envkit.d.ts: the API of watcher programs for task "${taskId}" (generated; editing it changes nothing).
//
// A watcher program is an ES module run in a sandbox by run_program(path, until?, validate?).
// It has no filesystem, network, timers, console, process, require or import; its one global is
// the frozen \`envkit\` below. Use top-level await: \`await envkit.wait(t)\` is the only way time
// moves, and every data tool call is \`await envkit.tools.<name>(args)\`, billed and rate-limited
// exactly like your own tool call.
//
// The program ends when it calls envkit.handover(payload) (you wake with the payload), when it
// returns, when it crashes (you wake with the error and its line number), or during a wait when
// a schedule becomes due, run_program's \`until\` passes or the experiment ends.
//
// Limits: about 2,000,000 operations and at most 200 tool calls between consecutive waits,
// 64 MB of memory, a bounded stack, a handover payload of at most 16 KB of JSON.
// Date and Date.now() give simulated time and render in UTC; Date parses ISO 8601 strings only
// (a time without an offset is UTC); Math.random is seeded (the same numbers every run).

type ToolResult<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

declare const envkit: {
  /** Simulated now, epoch ms. */
  now(): number;
  /** run_program's \`until\` (epoch ms), or null. A wait reaching it ends the program. */
  deadline(): number | null;
  /**
   * Wait until \`until\` (epoch ms, not before now); resolves with the new now. Ends the program
   * instead when a schedule becomes due, the deadline passes or the experiment ends first.
   */
  wait(until: number): Promise<number>;
  /** End the program and wake the agent with \`payload\` (JSON, at most 16 KB). */
  handover(payload: unknown): never;
  /** Files of your workspace (paths relative to its root). */
  workspace: {
    read(path: string): string;
    write(path: string, content: string): void;
    list(path?: string): { name: string; type: "file" | "dir"; bytes: number }[];
  };
  /** One wrapper per task data tool. */
  tools: {
${tools}
  };
};
`;
}
export {
  ENVKIT_DTS,
  EXAMPLE_WATCHER,
  SLEEP_TEMPLATE,
  envkitDts,
  schemaToTs,
  seedWorkspace
};
//# sourceMappingURL=seed.js.map
