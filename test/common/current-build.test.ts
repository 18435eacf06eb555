import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentBuildFile } from "../../src/common/current-build.js";

const root = mkdtempSync(join(tmpdir(), "relive-current-build-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe("currentBuildFile: dist/ stands in for src/ only while no source is newer than the build", () => {
  it("a current build, a stale one, a missing stamp or file", () => {
    mkdirSync(join(root, "src", "run"), { recursive: true });
    mkdirSync(join(root, "dist", "bundles"), { recursive: true });
    writeFileSync(join(root, "src", "a.ts"), "");
    writeFileSync(join(root, "src", "run", "b.ts"), "");
    at(join(root, "src", "a.ts"), 1_000);
    at(join(root, "src", "run", "b.ts"), 2_000);
    writeFileSync(join(root, "dist", "bundles", "child.js"), "");
    // the stamp: the newest source mtime (ms) the build saw
    writeFileSync(join(root, "dist", ".build-stamp"), String(2_000_000));
    expect(currentBuildFile("bundles/child.js", root)).toBe(join(root, "dist", "bundles", "child.js"));
    expect(currentBuildFile("bundles/other.js", root)).toBeNull();
    // a source edited after the build (however deep): stale
    at(join(root, "src", "run", "b.ts"), 2_001);
    expect(currentBuildFile("bundles/child.js", root)).toBeNull();
    writeFileSync(join(root, "dist", ".build-stamp"), String(2_001_000));
    expect(currentBuildFile("bundles/child.js", root)).toBe(join(root, "dist", "bundles", "child.js"));
    rmSync(join(root, "dist", ".build-stamp"));
    expect(currentBuildFile("bundles/child.js", root)).toBeNull();
  });
});
