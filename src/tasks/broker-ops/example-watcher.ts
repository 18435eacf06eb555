/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const brokerOpsExampleWatcher = `// watcher.example.js (broker-ops): hands over every STEP_MIN minutes (on the hour's grid), to check the
// broker desk's mailbox and fills and meet each duty before its deadline.
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const STEP_MIN = 25;
const MIN = 60 * 1000;
const next = (now) => {
  const step = STEP_MIN * MIN;
  return (Math.floor(now / step) + 1) * step;
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
