/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const filingTrackerExampleWatcher = `// watcher.example.js (filing-tracker): hands over at the client's sweep times: 13:29 and 14:29 UTC on weekdays
// (after the morning filings) and 02:05 and 03:05 UTC Tuesday to Saturday (after the evening ones).
// It calls no data tool (free); copy it and add the checks you need (see envkit.d.ts).
const MIN = 60 * 1000;
const next = (now) => {
  for (let t = Math.floor(now / MIN) * MIN + MIN; ; t += MIN) {
    const d = new Date(t);
    const wd = d.getUTCDay();
    const hm = d.getUTCHours() * 60 + d.getUTCMinutes();
    if ((wd >= 1 && wd <= 5 && (hm === 13 * 60 + 29 || hm === 14 * 60 + 29)) || (wd >= 2 && wd <= 6 && (hm === 2 * 60 + 5 || hm === 3 * 60 + 5)))
      return t;
  }
};
await envkit.wait(next(envkit.now()));
envkit.handover({ due: new Date(envkit.now()).toISOString() });
`;
