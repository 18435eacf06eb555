import { arcticShiftPull } from "./arctic-shift-pull.js";
import { ccNewsPull } from "./cc-news-pull.js";
import { edgarPull } from "./edgar-pull.js";
import { binancePull, krakenPull, kucoinPull, okxPull } from "./exchange-pull.js";
import { forecastBenchPull } from "./forecastbench-pull.js";
import { polymarketPull } from "./polymarket-pull.js";
import type { AnyPullSource } from "./pull-source.js";

/** Every `relive data pull` source, by name. */
export const PULL_SOURCES: readonly AnyPullSource[] = [
  ccNewsPull,
  polymarketPull,
  arcticShiftPull,
  krakenPull,
  binancePull,
  okxPull,
  kucoinPull,
  edgarPull,
  forecastBenchPull,
];
