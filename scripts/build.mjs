#!/usr/bin/env node
// Builds dist/ from src/: every .ts file transpiled 1:1 to ESM JavaScript by esbuild, plus the
// non-code assets modules read at run time, plus one bundle: the grid job process
// (dist/bundles/grid-child.js, npm packages left external). Loading ~320 modules one file at a time
// costs a job process about twice the CPU of loading them as one file, and a grid forks one per
// worker. Bundles sit one folder below dist/, as every source folder does below src/, so an asset
// path written relative to a module as `../<folder>/<asset>` (prices.yaml) resolves alike from both. With --types, tsc also writes the declaration files (used by `npm pack`; a plain
// `npm install` needs only the JavaScript).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const out = join(root, "dist");
const ASSETS = /\.(yaml|json|d\.ts|html|css)$/;

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

const started = performance.now();
const files = walk(src);
const code = files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
// a full build (--types, at pack time) starts clean; a plain build (npm install's prepare, which npm
// also runs right after prepack) overwrites in place, so it never deletes the declarations
if (process.argv.includes("--types")) rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: code,
  outdir: out,
  outbase: src,
  format: "esm",
  platform: "node",
  target: "node20",
  bundle: false,
  sourcemap: "linked",
  logLevel: "warning",
});
/**
 * The bundle keeps relive's own dynamic imports lazy: bundled, esbuild would hoist the npm imports
 * of a dynamically imported module (the WARC importer's readability, linkedom, warcio) to the
 * bundle's top, loaded at every job process start. They stay imports of the 1:1 dist/ files,
 * written `../<folder>/<file>.js` (one folder below dist/, as every bundle is).
 */
const lazyLocalImports = {
  name: "lazy-local-imports",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\//, namespace: "file" }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      const target = relative(src, join(args.resolveDir, args.path)).replace(/\.ts$/, ".js");
      return { path: `../${target.split("\\").join("/")}`, external: true };
    });
  },
};
await build({
  entryPoints: { "grid-child": join(src, "run", "grid", "job-child-main.ts") },
  plugins: [lazyLocalImports],
  outdir: join(out, "bundles"),
  format: "esm",
  platform: "node",
  target: "node20",
  bundle: true,
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
for (const f of files.filter((x) => ASSETS.test(x) && !x.endsWith("README.md"))) {
  const to = join(out, relative(src, f));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(f, to);
}
// the newest source mtime this build saw: bin/relive.js runs dist/ only while no source is newer
writeFileSync(join(out, ".build-stamp"), String(Math.max(...files.map((f) => statSync(f).mtimeMs))));
if (process.argv.includes("--types"))
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
process.stderr.write(
  `relive: built dist/ (${code.length} modules${process.argv.includes("--types") ? " + declarations" : ""}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
