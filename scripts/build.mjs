#!/usr/bin/env node
// Builds dist/ from src/: every .ts file transpiled 1:1 to ESM JavaScript by esbuild, plus the
// non-code assets modules read at run time, plus the grid job process in two files:
// dist/bundles/grid-child-body.cjs, job-child-main.ts with everything it imports (npm packages
// included, but for NOT_BUNDLED) as one CommonJS file, and dist/bundles/grid-child.js, the
// launcher a job process starts with, which compiles the body with a V8 code cache
// (src/run/grid/job-child-launcher.ts). Loading ~320 relive modules and ~250 npm package files one at
// a time costs a job process about twice the CPU of one file, and the code cache saves most of
// the parse and compile of that file; a grid forks one process per worker. Bundles sit one folder
// below dist/, as every source folder does below src/, so an asset path written relative to a
// module as `../<folder>/<asset>` (prices.yaml) resolves alike from both. With --types, tsc also
// writes the declaration files (used by `npm pack`; a plain `npm install` needs only the JavaScript).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

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
 * Rewrites every dynamic `import(...)` of the body into a call of `__reliveImport(...)`, a function
 * the launcher passes in (an ESM module's own `import()`, resolved from the same folder). V8 20's
 * code cache drops a script's host-defined options, and with them the callback Node needs for
 * `import()` inside a `vm.Script`: a body loaded from its cache would fail every dynamic import.
 * The calls are found with TypeScript's parser (never a text search: the body's strings hold
 * `import(` too, in watcher programs).
 */
function routeDynamicImports(code) {
  const file = ts.createSourceFile("grid-child-body.cjs", code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const at = [];
  const visit = (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) at.push(n.expression.getStart(file));
    ts.forEachChild(n, visit);
  };
  visit(file);
  let routed = code;
  for (const p of at.reverse()) routed = `${routed.slice(0, p)}__reliveImport${routed.slice(p + "import".length)}`;
  return routed;
}
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
/**
 * npm packages the body leaves to `require()` (resolved from dist/bundles/ at run time): a native
 * addon, and a package that loads its WebAssembly from beside its own files. Every other package
 * is bundled: a package that finds files relative to its own location belongs here.
 */
const NOT_BUNDLED = ["better-sqlite3", "quickjs-emscripten"];
const notBundled = {
  name: "not-bundled",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const pkg = args.path.split("/").slice(0, args.path.startsWith("@") ? 2 : 1).join("/");
      if (args.path.startsWith("node:") || args.kind === "dynamic-import" || NOT_BUNDLED.includes(pkg))
        return { path: args.path, external: true };
      return undefined;
    });
  },
};
const body = await build({
  entryPoints: { "grid-child-body": join(src, "run", "grid", "job-child-main.ts") },
  plugins: [lazyLocalImports, notBundled],
  outdir: join(out, "bundles"),
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  platform: "node",
  target: "node20",
  bundle: true,
  // the launcher passes its own URL (same folder, a .js name) for the body's import.meta.url
  define: { "import.meta.url": "__reliveModuleUrl" },
  sourcemap: "linked",
  logLevel: "warning",
  write: false,
});
for (const f of body.outputFiles) {
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.path.endsWith(".cjs") ? routeDynamicImports(f.text) : f.contents);
}
await build({
  entryPoints: { "grid-child": join(src, "run", "grid", "job-child-launcher.ts") },
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
