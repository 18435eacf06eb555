import { z } from "zod";
import { defineTool, ok, reject, type ToolDef, type ToolResult } from "../../tools/tool.js";
import { MAX_FILE_BYTES, READ_PAGE_BYTES, type Workspace, WorkspaceError } from "./workspace.js";

/**
 * The agent's file tools under the watcher trigger (free `meta` tools). A `WorkspaceError` (bad
 * path, escape attempt, cap, ambiguous edit) comes back as a free rejection with its message.
 */
export function workspaceTools(ws: Workspace): ToolDef[] {
  const guarded = (fn: () => ToolResult): ToolResult => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof WorkspaceError) return reject(e.message);
      throw e;
    }
  };
  return [
    defineTool({
      name: "ls",
      description:
        "List a directory of your workspace (default: its root): name, type (file|dir) and size in bytes. Free.",
      kind: "meta",
      args: z.object({ path: z.string().optional().describe("directory relative to the workspace root") }).strict(),
      run: ({ path }) => guarded(() => ok({ path: path ?? ".", entries: ws.ls(path ?? ".") })),
    }),
    defineTool({
      name: "read_file",
      description: `Read a text file of your workspace, one page of at most ${READ_PAGE_BYTES / 1024} KB from byte \`offset\`; \`next_offset\` is null at the end. Free.`,
      kind: "meta",
      args: z
        .object({
          path: z.string().describe("file relative to the workspace root"),
          offset: z.number().int().min(0).optional().describe("byte offset of the page (default 0)"),
        })
        .strict(),
      run: ({ path, offset }) => guarded(() => ok(ws.readFile(path, offset ?? 0))),
    }),
    defineTool({
      name: "write_file",
      description: `Create or replace a file of your workspace (at most ${MAX_FILE_BYTES / (1024 * 1024)} MB; parent directories are created). Free.`,
      kind: "meta",
      args: z
        .object({
          path: z.string().describe("file relative to the workspace root (created or replaced)"),
          content: z.string().describe("the file's whole new text"),
        })
        .strict(),
      run: ({ path, content }) =>
        guarded(() => {
          ws.writeFile(path, content);
          return ok({ path, bytes: Buffer.byteLength(content, "utf8") });
        }),
    }),
    defineTool({
      name: "edit_file",
      description:
        "Replace the one occurrence of `old_text` in a workspace file with `new_text`; refused when `old_text` occurs zero or several times. Free.",
      kind: "meta",
      args: z
        .object({
          path: z.string().describe("file relative to the workspace root"),
          old_text: z.string().min(1).describe("text that occurs exactly once in the file"),
          new_text: z.string().describe("the text that replaces it"),
        })
        .strict(),
      run: ({ path, old_text, new_text }) =>
        guarded(() => {
          ws.editFile(path, old_text, new_text);
          return ok({ path, replaced: 1 });
        }),
    }),
  ];
}
