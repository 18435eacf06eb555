/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const breakoutNewsExampleWatcher = `// watcher.example.js (breakout-news): every 10 minutes, read the monitored markets (get_markets is
// free) and hand over when an outcome's latest visible price moved by MOVE or more since this program
// started, or a new market appeared.
const STEP = 10 * 60 * 1000;
const MOVE = 0.05;
const first = await envkit.tools.get_markets({});
if (!first.ok) envkit.handover({ error: first.error });
const start = {};
for (const m of first.value.markets) start[m.id] = m.latest;
for (;;) {
  await envkit.wait(envkit.now() + STEP);
  const r = await envkit.tools.get_markets({});
  if (!r.ok) envkit.handover({ error: r.error });
  const moved = [];
  for (const m of r.value.markets) {
    const was = start[m.id];
    if (was === undefined) {
      moved.push({ id: m.id, new_market: true });
      continue;
    }
    for (const [outcome, p] of Object.entries(m.latest))
      if (typeof was[outcome] === "number" && Math.abs(p - was[outcome]) >= MOVE)
        moved.push({ id: m.id, outcome, from: was[outcome], to: p });
  }
  if (moved.length > 0) envkit.handover({ moved });
}
`;
