import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync
} from "node:fs";
import { dirname, isAbsolute, join, posix, relative, sep } from "node:path";
const READ_PAGE_BYTES = 16 * 1024;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_WORKSPACE_BYTES = 32 * 1024 * 1024;
const MAX_FILES = 1e3;
const MAX_PATH_CHARS = 256;
const MAX_SEGMENT_CHARS = 128;
class WorkspaceError extends Error {
  name = "WorkspaceError";
}
const byName = (a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
function isInside(root, p) {
  const rel = relative(root, p);
  return rel === "" || !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
class Workspace {
  /** The real (symlink-free) absolute path of the root. */
  root;
  constructor(root) {
    mkdirSync(root, { recursive: true });
    this.root = realpathSync(root);
  }
  /** Entries of a directory (default: the root), sorted by name. Symlinks resolving outside the root are not listed. */
  ls(path = ".") {
    const abs = this.resolveExisting(path, "ls");
    if (!statSync(abs).isDirectory()) throw new WorkspaceError(`ls: "${path}" is a file, not a directory`);
    const out = [];
    for (const name of readdirSync(abs)) {
      const child = join(abs, name);
      let real;
      try {
        real = realpathSync(child);
      } catch {
        continue;
      }
      if (!isInside(this.root, real)) continue;
      const st = statSync(real);
      if (st.isDirectory()) out.push({ name, type: "dir", bytes: 0 });
      else if (st.isFile()) out.push({ name, type: "file", bytes: st.size });
    }
    return out.sort(byName);
  }
  /**
   * One page (≤ 16 KiB) of a UTF-8 file from byte `offset`. Pages end on a character boundary;
   * `next_offset` is the byte offset of the next page, or null at the end.
   */
  readFile(path, offset = 0) {
    const buf = this.readBuffer(path, "read_file");
    if (!Number.isInteger(offset) || offset < 0)
      throw new WorkspaceError(`read_file: offset must be a non-negative integer, got ${offset}`);
    if (offset > buf.length)
      throw new WorkspaceError(`read_file: offset ${offset} is past the end of "${path}" (${buf.length} bytes)`);
    let start = offset;
    while (start < buf.length && isContinuation(buf[start])) start++;
    let end = Math.min(buf.length, start + READ_PAGE_BYTES);
    if (end < buf.length) while (end > start && isContinuation(buf[end])) end--;
    return {
      content: buf.subarray(start, end).toString("utf8"),
      offset: start,
      next_offset: end < buf.length ? end : null,
      total_bytes: buf.length
    };
  }
  /** The whole file as UTF-8 text (files are ≤ 1 MiB). Used by `envkit.workspace.read`. */
  readText(path) {
    return this.readBuffer(path, "read").toString("utf8");
  }
  /** Create or replace a file (parent directories are created). */
  writeFile(path, content) {
    if (typeof content !== "string") throw new WorkspaceError("write_file: content must be a string");
    const bytes = Buffer.byteLength(content, "utf8");
    if (bytes > MAX_FILE_BYTES)
      throw new WorkspaceError(
        `write_file: content is ${bytes} bytes; a file may hold at most ${MAX_FILE_BYTES} bytes`
      );
    const abs = this.resolveForWrite(path, "write_file");
    let previous = 0;
    if (existsSync(abs)) {
      const st = statSync(abs);
      if (st.isDirectory()) throw new WorkspaceError(`write_file: "${path}" is a directory`);
      previous = st.size;
    } else {
      const files = this.usage().files;
      if (files + 1 > MAX_FILES)
        throw new WorkspaceError(`write_file: the workspace already holds ${files} files (limit ${MAX_FILES})`);
    }
    const total = this.usage().bytes - previous + bytes;
    if (total > MAX_WORKSPACE_BYTES)
      throw new WorkspaceError(`write_file: the workspace would hold ${total} bytes (limit ${MAX_WORKSPACE_BYTES})`);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content, "utf8");
  }
  /** Replace the one occurrence of `oldText` with `newText`; zero or several occurrences are refused. */
  editFile(path, oldText, newText) {
    if (typeof oldText !== "string" || oldText.length === 0)
      throw new WorkspaceError("edit_file: old_text must be a non-empty string");
    if (typeof newText !== "string") throw new WorkspaceError("edit_file: new_text must be a string");
    const text = this.readBuffer(path, "edit_file").toString("utf8");
    const first = text.indexOf(oldText);
    if (first < 0)
      throw new WorkspaceError(`edit_file: old_text matched 0 times in "${path}"; it must match exactly once`);
    let count = 1;
    for (let i = text.indexOf(oldText, first + 1); i >= 0; i = text.indexOf(oldText, i + 1)) count++;
    if (count > 1)
      throw new WorkspaceError(
        `edit_file: old_text matched ${count} times in "${path}"; it must match exactly once (include more surrounding text)`
      );
    this.writeFile(path, text.slice(0, first) + newText + text.slice(first + oldText.length));
  }
  // ---- jail ------------------------------------------------------------------------------------
  readBuffer(path, what) {
    const abs = this.resolveExisting(path, what);
    const st = statSync(abs);
    if (!st.isFile()) throw new WorkspaceError(`${what}: "${path}" is a directory, not a file`);
    return readFileSync(abs);
  }
  /** Normalized relative path, or a WorkspaceError. "." is the root. */
  normalize(path, what) {
    if (typeof path !== "string") throw new WorkspaceError(`${what}: path must be a string`);
    if (path.length === 0) throw new WorkspaceError(`${what}: path is empty`);
    if (path.length > MAX_PATH_CHARS)
      throw new WorkspaceError(`${what}: path is longer than ${MAX_PATH_CHARS} characters`);
    if (/[\u0000-\u001f\u007f\\]/.test(path))
      throw new WorkspaceError(`${what}: path "${path}" contains a backslash or a control character`);
    if (path.startsWith("/") || isAbsolute(path) || /^[a-zA-Z]:/.test(path))
      throw new WorkspaceError(`${what}: "${path}" is an absolute path; paths are relative to the workspace root`);
    const norm = posix.normalize(path);
    if (norm === ".." || norm.startsWith("../"))
      throw new WorkspaceError(`${what}: "${path}" escapes the workspace (paths may not climb above its root)`);
    const clean = norm.replace(/\/+$/, "");
    for (const seg of clean.split("/"))
      if (seg.length > MAX_SEGMENT_CHARS)
        throw new WorkspaceError(`${what}: a path segment is longer than ${MAX_SEGMENT_CHARS} characters`);
    return clean === "" ? "." : clean;
  }
  resolveExisting(path, what) {
    const rel = this.normalize(path, what);
    const abs = join(this.root, rel);
    if (!existsSync(abs)) {
      throw new WorkspaceError(`${what}: "${path}" does not exist`);
    }
    const real = realpathSync(abs);
    if (!isInside(this.root, real))
      throw new WorkspaceError(`${what}: "${path}" resolves outside the workspace (symlink)`);
    return real;
  }
  resolveForWrite(path, what) {
    const rel = this.normalize(path, what);
    if (rel === ".") throw new WorkspaceError(`${what}: "${path}" is the workspace root, not a file`);
    const abs = join(this.root, rel);
    let link = false;
    try {
      link = lstatSync(abs).isSymbolicLink();
    } catch {
      link = false;
    }
    if (link) {
      let real;
      try {
        real = realpathSync(abs);
      } catch {
        throw new WorkspaceError(`${what}: "${path}" is a dangling symlink`);
      }
      if (!isInside(this.root, real))
        throw new WorkspaceError(`${what}: "${path}" resolves outside the workspace (symlink)`);
      return real;
    }
    let probe = dirname(abs);
    while (!existsSync(probe)) probe = dirname(probe);
    const realParent = realpathSync(probe);
    if (!isInside(this.root, realParent))
      throw new WorkspaceError(`${what}: "${path}" resolves outside the workspace (symlink)`);
    if (!statSync(realParent).isDirectory()) throw new WorkspaceError(`${what}: a parent of "${path}" is a file`);
    return join(realParent, relative(probe, abs));
  }
  /** Total bytes and file count of the workspace (symlinks are not followed). */
  usage() {
    let bytes = 0;
    let files = 0;
    const walk = (dir) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) {
          files++;
          bytes += statSync(p).size;
        }
      }
    };
    walk(this.root);
    return { bytes, files };
  }
}
function isContinuation(byte) {
  return (byte & 192) === 128;
}
export {
  MAX_FILES,
  MAX_FILE_BYTES,
  MAX_PATH_CHARS,
  MAX_SEGMENT_CHARS,
  MAX_WORKSPACE_BYTES,
  READ_PAGE_BYTES,
  Workspace,
  WorkspaceError
};
//# sourceMappingURL=workspace.js.map
