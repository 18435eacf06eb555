/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const openForecastExampleWatcher = `// watcher.example.js (open-forecast): hands over at the next 00:00 UTC, when a new day of questions and news
// begins (forecasts standing at the day's end are scored).
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const MIN = 60 * 1000;
const next = (now) => {
  const day = 24 * 60 * MIN;
  return (Math.floor(now / day) + 1) * day;
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
