/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const priceCheckExampleWatcher = `// watcher.example.js (price-check): hands over at :50 of every hour, ten minutes before the hour's report is
// scored, so you can fetch the venues and report each symbol.
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const MIN = 60 * 1000;
const next = (now) => {
  const h = Math.floor(now / (60 * MIN)) * 60 * MIN + 50 * MIN;
  return h > now ? h : h + 60 * MIN;
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
