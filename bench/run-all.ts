/**
 * `npm run bench`: every benchmark of spec/quality.md that exists, in order. Each prints its
 * figures (medians) and writes bench/results/<name>.json. Pass --quick for smaller corpora.
 */

import { run as p1 } from "./p1-replay.js";
import { run as p1r } from "./p1-results.js";
import { run as p1t } from "./p1-tasks.js";
import { run as p2 } from "./p2-search.js";
import { run as p3 } from "./p3-ingest.js";
import { run as p4 } from "./p4-tokens.js";
import { run as p5 } from "./p5-watcher.js";
import { run as p6 } from "./p6-grid.js";
import { run as p7 } from "./p7-dashboard.js";
import { run as p8 } from "./p8-startup.js";

const quick = process.argv.includes("--quick");
await p1({ repeats: quick ? 3 : 5 });
await p1r(quick ? { days: [28] } : {});
await p1t(quick ? { days: [28], repeats: 1 } : {});
await p2(quick ? { articles: 100_000, quick: true } : {});
await p3(quick ? { articles: 100_000, smallArticles: 50_000 } : {});
await p5({});
await p4(quick ? { days: 7 } : {});
await p6(quick ? { seeds: 10, days: [3], latencyJobs: 20, repeats: 1 } : {});
await p7(quick ? { cold: 3, warm: 5, days90: false } : {});
await p8(quick ? { repeats: 3 } : {});
