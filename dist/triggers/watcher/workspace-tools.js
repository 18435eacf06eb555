import { z } from "zod";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { MAX_FILE_BYTES, READ_PAGE_BYTES, WorkspaceError } from "./workspace.js";
function workspaceTools(ws) {
  const guarded = (fn) => {
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
      description: "List a directory of your workspace (default: its root): name, type (file|dir) and size in bytes. Free.",
      kind: "meta",
      args: z.object({ path: z.string().optional().describe("directory relative to the workspace root") }).strict(),
      run: ({ path }) => guarded(() => ok({ path: path ?? ".", entries: ws.ls(path ?? ".") }))
    }),
    defineTool({
      name: "read_file",
      description: `Read a text file of your workspace, one page of at most ${READ_PAGE_BYTES / 1024} KB from byte \`offset\`; \`next_offset\` is null at the end. Free.`,
      kind: "meta",
      args: z.object({
        path: z.string().describe("file relative to the workspace root"),
        offset: z.number().int().min(0).optional().describe("byte offset of the page (default 0)")
      }).strict(),
      run: ({ path, offset }) => guarded(() => ok(ws.readFile(path, offset ?? 0)))
    }),
    defineTool({
      name: "write_file",
      description: `Create or replace a file of your workspace (at most ${MAX_FILE_BYTES / (1024 * 1024)} MB; parent directories are created). Free.`,
      kind: "meta",
      args: z.object({ path: z.string(), content: z.string() }).strict(),
      run: ({ path, content }) => guarded(() => {
        ws.writeFile(path, content);
        return ok({ path, bytes: Buffer.byteLength(content, "utf8") });
      })
    }),
    defineTool({
      name: "edit_file",
      description: "Replace the one occurrence of `old_text` in a workspace file with `new_text`; refused when `old_text` occurs zero or several times. Free.",
      kind: "meta",
      args: z.object({ path: z.string(), old_text: z.string().min(1), new_text: z.string() }).strict(),
      run: ({ path, old_text, new_text }) => guarded(() => {
        ws.editFile(path, old_text, new_text);
        return ok({ path, replaced: 1 });
      })
    })
  ];
}
export {
  workspaceTools
};
//# sourceMappingURL=workspace-tools.js.map
