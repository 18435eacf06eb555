import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";

/** The broker-ops tests share one seed-1 synthetic world of the `synth-5d` window, built once per machine. */
export const START = Date.parse("2026-03-01T00:00:00Z");
export const END = Date.parse("2026-03-06T00:00:00Z");
export const T = (iso: string) => Date.parse(iso);

/** Run options' cache dir: the runner finds the synthetic world of a window under `<cache>/synth`. */
export const BROKER_CACHE = join(tmpdir(), "relive-test-broker-ops");

/**
 * The world directory (built on first use). Test files run in parallel processes: when another one
 * finished building the same world first, the build refuses to overwrite it and the finished world
 * is used.
 */
export function brokerWorldDir(): string {
  const cache = join(BROKER_CACHE, "synth");
  mkdirSync(cache, { recursive: true });
  try {
    return ensureSynthWorld(cache, { seed: 1, start: START, end: END });
  } catch (e) {
    if (e instanceof Error && /appeared during the build/.test(e.message))
      return ensureSynthWorld(cache, { seed: 1, start: START, end: END });
    throw e;
  }
}
