/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const resolutionDetectExampleWatcher = `// watcher.example.js (resolution-detect): hands over every EVERY_H hours on the UTC grid (00:00, 03:00, ...), to
// list the questions and search the news for resolution cues.
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const EVERY_H = 3;
const MIN = 60 * 1000;
const next = (now) => {
  const step = EVERY_H * 60 * MIN;
  return (Math.floor(now / step) + 1) * step;
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
