/**
 * One synthetic-world cache for a whole `vitest run` (vitest globalSetup). Test files run in separate
 * processes, and each used to build the synthetic worlds of its windows into its own temp cache (the
 * same 3-day world was generated about 30 times per run), beside caches kept per machine that could
 * serve worlds built by older code. `setup` creates one directory per run and passes it to every
 * worker (and the CLI children they spawn) as RELIVE_TEST_SYNTH_CACHE; test/run/helpers.ts links
 * each file's `<cache>/synth` to it and `testSynthCache()` returns it. Nothing outlives the run
 * (`teardown` deletes it), so no world built by older code is ever reused. Two workers asking for
 * the same world at once both build it; the second to finish uses the first's (ensureSynthWorld).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SHARED_SYNTH_CACHE_ENV = "RELIVE_TEST_SYNTH_CACHE";

/**
 * The synthetic-world cache tests build into and read from: the run's (under vitest), else (a
 * script or benchmark importing test helpers) the temp dir's `relive-test-synth-cache`.
 */
export function testSynthCache(): string {
  const dir = process.env[SHARED_SYNTH_CACHE_ENV] ?? join(tmpdir(), "relive-test-synth-cache");
  mkdirSync(dir, { recursive: true });
  return dir;
}

let created: string | null = null;

export function setup(): void {
  if (process.env[SHARED_SYNTH_CACHE_ENV]) return;
  created = mkdtempSync(join(tmpdir(), "relive-test-synth-run-"));
  process.env[SHARED_SYNTH_CACHE_ENV] = created;
}

export function teardown(): void {
  if (created === null) return;
  rmSync(created, { recursive: true, force: true });
  delete process.env[SHARED_SYNTH_CACHE_ENV];
  created = null;
}
