#!/usr/bin/env node
// The relive CLI. Runs the compiled JavaScript in dist/ (built by `npm install` / `npm run build`).
// In a source checkout whose src/ changed after the last build, it runs the TypeScript sources
// through tsx instead (and says so), so a stale build never runs silently.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = join(root, "dist", "cli", "main.js");
const stamp = join(root, "dist", ".build-stamp");

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsCurrent() {
  if (!existsSync(compiled) || !existsSync(stamp)) return false;
  const src = join(root, "src");
  if (!existsSync(src)) return true; // an installed package ships dist/ only
  return newestSource(src) <= Number(readFileSync(stamp, "utf8"));
}

if (buildIsCurrent()) await import(compiled);
else {
  if (existsSync(compiled))
    process.stderr.write(
      "relive: src/ changed since the last build; running the sources through tsx (npm run build to refresh dist/)\n",
    );
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
