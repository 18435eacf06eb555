import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_FILE_BYTES, READ_PAGE_BYTES, Workspace, WorkspaceError } from "../../../src/triggers/watcher/workspace.js";
import { workspaceTools } from "../../../src/triggers/watcher/workspace-tools.js";
import { tmpWorkspace } from "./helpers.js";

const refused = (fn: () => unknown, pattern: RegExp) => {
  expect(fn).toThrow(WorkspaceError);
  expect(fn).toThrow(pattern);
};

describe("Workspace jail", () => {
  it("refuses absolute paths, climbing out, and symlinks resolving outside", () => {
    const outside = mkdtempSync(join(tmpdir(), "relive-outside-"));
    writeFileSync(join(outside, "secret.txt"), "truth");
    const ws = tmpWorkspace();
    symlinkSync(outside, join(ws.root, "link-dir"));
    symlinkSync(join(outside, "secret.txt"), join(ws.root, "link-file"));
    refused(() => ws.readFile("/etc/passwd"), /read_file: "\/etc\/passwd" is an absolute path/);
    refused(() => ws.readFile("../x"), /read_file: "\.\.\/x" escapes the workspace/);
    refused(() => ws.readFile("a/../../x"), /escapes the workspace/);
    refused(() => ws.writeFile("../../evil.txt", "x"), /write_file: "\.\.\/\.\.\/evil\.txt" escapes the workspace/);
    refused(() => ws.readFile("link-file"), /read_file: "link-file" resolves outside the workspace \(symlink\)/);
    refused(() => ws.readFile("link-dir/secret.txt"), /resolves outside the workspace/);
    refused(
      () => ws.writeFile("link-dir/new.txt", "x"),
      /write_file: "link-dir\/new\.txt" resolves outside the workspace/,
    );
    refused(() => ws.writeFile("link-file", "x"), /resolves outside the workspace/);
    refused(() => ws.ls("link-dir"), /ls: "link-dir" resolves outside the workspace/);
    refused(() => ws.readFile("a\\..\\b"), /backslash or a control character/);
    refused(() => ws.readFile("a\u0000b"), /backslash or a control character/);
    refused(() => ws.readFile("x".repeat(300)), /longer than 256 characters/);
    expect(ws.ls().map((e) => e.name)).toEqual([]); // links to the outside are not listed
  });

  it("property: no generated path made of segments, dots and slashes ever reaches outside the root", () => {
    const ws = tmpWorkspace();
    mkdirSync(join(ws.root, "a", "b"), { recursive: true });
    const seg = fc.constantFrom("a", "b", "..", ".", "", "c.txt");
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 8 }), fc.boolean(), (segs, leading) => {
        const p = (leading ? "/" : "") + segs.join("/");
        try {
          ws.writeFile(p, "v");
        } catch (e) {
          expect(e).toBeInstanceOf(WorkspaceError);
          return;
        }
        // a successful write landed inside the root
        expect(ws.readText(p)).toBe("v");
        expect(p.startsWith("/")).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("ls lists sorted entries with types and sizes", () => {
    const ws = tmpWorkspace();
    ws.writeFile("b.txt", "héllo");
    ws.writeFile("a/x.js", "1");
    expect(ws.ls()).toEqual([
      { name: "a", type: "dir", bytes: 0 },
      { name: "b.txt", type: "file", bytes: 6 },
    ]);
    expect(ws.ls("a/")).toEqual([{ name: "x.js", type: "file", bytes: 1 }]);
    refused(() => ws.ls("b.txt"), /ls: "b\.txt" is a file, not a directory/);
    refused(() => ws.ls("nope"), /ls: "nope" does not exist/);
  });

  it("readFile pages at 16 KB on character boundaries and reassembles exactly", () => {
    const ws = tmpWorkspace();
    const text = `${"é".repeat(10_000)}${"x".repeat(5)}${"😀".repeat(3000)}`; // multi-byte across page edges
    ws.writeFile("big.txt", text);
    const total = Buffer.byteLength(text);
    let offset: number | null = 0;
    let out = "";
    let pages = 0;
    while (offset !== null) {
      const p = ws.readFile("big.txt", offset);
      expect(Buffer.byteLength(p.content)).toBeLessThanOrEqual(READ_PAGE_BYTES);
      expect(p.total_bytes).toBe(total);
      out += p.content;
      offset = p.next_offset;
      pages++;
    }
    expect(out).toBe(text);
    expect(pages).toBe(Math.ceil(total / READ_PAGE_BYTES));
    expect(ws.readFile("big.txt", total)).toEqual({
      content: "",
      offset: total,
      next_offset: null,
      total_bytes: total,
    });
    refused(() => ws.readFile("big.txt", total + 1), /offset \d+ is past the end/);
  });

  it("editFile needs exactly one match and says how many matched", () => {
    const ws = tmpWorkspace();
    ws.writeFile("w.js", "const a = 1;\nconst b = 1;\n");
    refused(
      () => ws.editFile("w.js", "= 1", "= 2"),
      /edit_file: old_text matched 2 times in "w\.js"; it must match exactly once/,
    );
    refused(() => ws.editFile("w.js", "= 3", "= 2"), /edit_file: old_text matched 0 times in "w\.js"/);
    ws.editFile("w.js", "const b = 1", "const b = 2");
    expect(ws.readText("w.js")).toBe("const a = 1;\nconst b = 2;\n");
  });

  it("caps the size of a file", () => {
    const ws = tmpWorkspace();
    refused(() => ws.writeFile("big", "x".repeat(MAX_FILE_BYTES + 1)), /at most 1048576 bytes/);
    ws.writeFile("ok", "x".repeat(MAX_FILE_BYTES));
    expect(ws.ls()).toEqual([{ name: "ok", type: "file", bytes: MAX_FILE_BYTES }]);
  });

  it("works from a root given through a symlink", () => {
    const real = mkdtempSync(join(tmpdir(), "relive-real-"));
    const link = join(mkdtempSync(join(tmpdir(), "relive-link-")), "ws");
    symlinkSync(real, link);
    const ws = new Workspace(link);
    ws.writeFile("f.txt", "1");
    expect(ws.readText("f.txt")).toBe("1");
  });
});

describe("workspaceTools", () => {
  const byName = (ws: Workspace) => Object.fromEntries(workspaceTools(ws).map((t) => [t.name, t]));
  const ctx = { now: () => 0, actor: "agent" };

  it("are four free meta tools with strict zod arguments", () => {
    const tools = workspaceTools(tmpWorkspace());
    expect(tools.map((t) => [t.name, t.kind, t.priceOf({})])).toEqual([
      ["ls", "meta", 0],
      ["read_file", "meta", 0],
      ["write_file", "meta", 0],
      ["edit_file", "meta", 0],
    ]);
    const edit = tools[3]!;
    expect(edit.args.safeParse({ path: "a", old_text: "", new_text: "b" }).success).toBe(false);
    expect(edit.args.safeParse({ path: "a", old_text: "x", new_text: "b", extra: 1 }).success).toBe(false);
    expect(z.toJSONSchema(tools[1]!.args)).toMatchObject({ required: ["path"] });
  });

  it("return values, and rejections for workspace errors", async () => {
    const ws = tmpWorkspace();
    const t = byName(ws);
    expect(await t.write_file!.invoke({ path: "n.md", content: "one two two" }, ctx)).toEqual({
      ok: true,
      value: { path: "n.md", bytes: 11 },
    });
    expect(await t.edit_file!.invoke({ path: "n.md", old_text: "two", new_text: "2" }, ctx)).toEqual({
      ok: false,
      error:
        'edit_file: old_text matched 2 times in "n.md"; it must match exactly once (include more surrounding text)',
    });
    expect(await t.edit_file!.invoke({ path: "n.md", old_text: "one", new_text: "1" }, ctx)).toEqual({
      ok: true,
      value: { path: "n.md", replaced: 1 },
    });
    expect(await t.read_file!.invoke({ path: "n.md" }, ctx)).toEqual({
      ok: true,
      value: { content: "1 two two", offset: 0, next_offset: null, total_bytes: 9 },
    });
    expect(await t.ls!.invoke({}, ctx)).toEqual({
      ok: true,
      value: { path: ".", entries: [{ name: "n.md", type: "file", bytes: 9 }] },
    });
    expect(await t.read_file!.invoke({ path: "../../etc/passwd" }, ctx)).toEqual({
      ok: false,
      error: 'read_file: "../../etc/passwd" escapes the workspace (paths may not climb above its root)',
    });
  });
});
