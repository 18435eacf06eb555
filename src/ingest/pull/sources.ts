import { edgarPull } from "./edgar-pull.js";
import { forecastBenchPull } from "./forecastbench-pull.js";
import type { AnyPullSource } from "./pull-source.js";

/** Every `relive data pull` source, by name. */
export const PULL_SOURCES: readonly AnyPullSource[] = [edgarPull, forecastBenchPull];
