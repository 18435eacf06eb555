/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const riskPortfolioExampleWatcher = `// watcher.example.js (risk-portfolio): hands over at 00:05 UTC each day, after the previous day's closes are
// visible, to read get_prices and get_account and submit the day's orders and books.
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const MIN = 60 * 1000;
const next = (now) => {
  const day = 24 * 60 * MIN;
  const t = Math.floor(now / day) * day + 5 * MIN;
  return t > now ? t : t + day;
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
