#!/usr/bin/env node
// `npm run test:pack`: packs relive, checks the tarball ships no tests, installs it into a fresh
// consumer project (dependencies from the npm cache: --prefer-offline), and runs the custom-task
// example (examples/custom-task) through the installed CLI and through the library API.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "relive-pack-"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const sh = (cmd, args, cwd, opts = {}) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...opts });
const step = (m) => process.stderr.write(`test:pack: ${m}\n`);
const fail = (m) => {
  process.stderr.write(`test:pack: FAILED: ${m}\n(work dir kept: ${work})\n`);
  process.exit(1);
};

step("npm pack (builds dist/ with declarations)");
const [packed] = JSON.parse(sh(npm, ["pack", "--json", "--pack-destination", work], root));
const files = packed.files.map((f) => f.path);
const bad = files.filter((f) => /(^|\/)test\//.test(f) || /\.test\.[jt]s$/.test(f) || f.startsWith("src/") || f.startsWith("examples/"));
if (bad.length) fail(`the tarball ships files it must not: ${bad.slice(0, 5).join(", ")}`);
for (const need of [
  "dist/index.js",
  "dist/index.d.ts",
  "dist/cli/main.js",
  "bin/relive.js",
  "dist/models/prices.yaml",
  "recipes/svb-2023.yaml",
  "recipes/tesla-2022.yaml",
  "recipes/forecastbench-2026-01-04.yaml",
  "recipes/forecastbench-2026-01-18.yaml",
])
  if (!files.includes(need)) fail(`the tarball lacks ${need}`);
step(`${packed.filename}: ${files.length} files, ${(packed.size / 1e6).toFixed(1)} MB packed, no tests`);

const app = join(work, "consumer");
mkdirSync(app);
writeFileSync(
  join(app, "package.json"),
  JSON.stringify({ name: "relive-consumer", private: true, type: "module", dependencies: { relive: `file:${join(work, packed.filename)}` } }, null, 2),
);
step("npm install --prefer-offline in a fresh consumer project");
sh(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], app, { stdio: ["ignore", "inherit", "inherit"] });
cpSync(join(root, "examples", "custom-task", "post-counter.ts"), join(app, "post-counter.ts"));
const env = { ...process.env, RELIVE_RUNS_DIR: join(app, "runs"), RELIVE_CACHE_DIR: join(app, ".relive-cache") };

step("library: import { runEpisode, defineTask } from 'relive'");
writeFileSync(
  join(app, "library.mts"),
  `import { defineTask, registerTask, runEpisode } from "relive";
import { postCounterTask } from "./post-counter.ts";
if (typeof defineTask !== "function") throw new Error("relive exports no defineTask");
registerTask(postCounterTask);
const counter = await runEpisode({ task: "post-counter", agent: { model: "scripted:counter" } });
const silent = await runEpisode({ task: "post-counter", agent: { model: "scripted:silent" } });
console.log(JSON.stringify([counter.results.performance.primary.value, silent.results.performance.primary.value]));
`,
);
const lib = JSON.parse(sh(process.execPath, ["--import", "tsx", "library.mts"], app, { env }).trim().split("\n").pop());
if (lib[0] !== 1 || lib[1] !== 0) fail(`library run: count_acc counter ${lib[0]} (want 1), silent ${lib[1]} (want 0)`);

step("CLI: relive run --task-module ./post-counter.ts");
rmSync(join(app, "runs"), { recursive: true, force: true });
const out = JSON.parse(
  sh(join(app, "node_modules", ".bin", "relive"), ["run", "--task-module", "./post-counter.ts", "--task", "post-counter", "--json", "-q"], app, { env }),
);
if (out.performance.primary.value !== 1) fail(`CLI run: count_acc ${out.performance.primary.value} (want 1)`);

step("CLI: relive run --task post-counter with the module listed in relive.config.json");
rmSync(join(app, "runs"), { recursive: true, force: true });
writeFileSync(join(app, "relive.config.json"), JSON.stringify({ task_modules: ["./post-counter.ts"] }));
const listed = JSON.parse(
  sh(join(app, "node_modules", ".bin", "relive"), ["run", "--task", "post-counter", "-m", "scripted:silent", "--json", "-q"], app, { env }),
);
if (listed.performance.primary.value !== 0) fail(`relive.config run: count_acc ${listed.performance.primary.value} (want 0)`);
step("CLI: relive grid over post-counter in the compiled job processes (dist/bundles/grid-child.js and its body)");
writeFileSync(
  join(app, "grid.yaml"),
  "name: pack-grid\nbase:\n  task: post-counter\naxes:\n  models: [\"scripted:counter\", \"scripted:silent\"]\n",
);
const grid = sh(join(app, "node_modules", ".bin", "relive"), ["grid", "grid.yaml", "--workers", "2", "--json", "-q"], app, { env });
const cells = JSON.parse(grid);
const scores = cells.map((c) => c.summary?.primary?.value).sort();
if (cells.length !== 2 || scores[0] !== 0 || scores[1] !== 1)
  fail(`grid run: want count_acc 0 and 1 from two cells, got ${JSON.stringify(cells)}`);
step("CLI: a second grid's job processes load the runner from the V8 code cache the first one wrote");
const cacheDir = join(app, "node_modules", "relive", "dist", "bundles", "code-cache");
const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith(".v8cache")) : []);
const [cache] = caches();
if (caches().length !== 1) fail(`want one code cache in ${cacheDir} after the grid, found ${JSON.stringify(caches())}`);
const written = statSync(join(cacheDir, cache)).mtimeMs;
writeFileSync(
  join(app, "grid2.yaml"),
  "name: pack-grid-2\nbase:\n  task: post-counter\naxes:\n  models: [\"scripted:counter\"]\n  seeds: [1, 2]\n",
);
const second = JSON.parse(sh(join(app, "node_modules", ".bin", "relive"), ["grid", "grid2.yaml", "--workers", "2", "--json", "-q"], app, { env }));
if (second.length !== 2 || second.some((c) => c.summary?.primary?.value !== 1))
  fail(`second grid run: want count_acc 1 from two cells, got ${JSON.stringify(second)}`);
if (caches().length !== 1 || statSync(join(cacheDir, cache)).mtimeMs !== written)
  fail("the second grid's job processes wrote the code cache again: they did not use it");
step("CLI: relive data recipes lists the shipped recipes from the installed package");
const shipped = JSON.parse(sh(join(app, "node_modules", ".bin", "relive"), ["data", "recipes", "--json"], app, { env }));
const episodes = shipped.flatMap((r) => (r.episode ? [r.episode] : [])).sort();
const wantEpisodes = ["forecastbench-2026-01-04", "forecastbench-2026-01-18", "polymarket-wom-2026-01", "svb-2023", "tesla-2022"];
if (JSON.stringify(episodes) !== JSON.stringify(wantEpisodes))
  fail(`relive data recipes: episodes ${JSON.stringify(episodes)}`);
const worldOnly = shipped.filter((r) => !r.episode).map((r) => r.world).sort();
if (JSON.stringify(worldOnly) !== JSON.stringify(["polymarket-betting-on-war", "reddit-arcticshift-sample", "warc-ccmain-sample"]))
  fail(`relive data recipes: world-only recipes ${JSON.stringify(worldOnly)}`);
if (!shipped.every((r) => r.file.includes(join("node_modules", "relive", "recipes"))))
  fail(`relive data recipes: not the package's recipes/: ${shipped.map((r) => r.file).join(", ")}`);
step("ok: the packed relive runs a task defined outside it through the CLI (flag, project config, grid) and the library, and ships its recipes");
rmSync(work, { recursive: true, force: true });
