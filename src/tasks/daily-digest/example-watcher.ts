/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const dailyDigestExampleWatcher = `// watcher.example.js (daily-digest): once a day, 5 minutes after the delivery window opens
// (12:00 UTC by default), list the candidate posts (the 24 h before the opening) by visible comments
// and hand over the top ids, so you can call digest inside the window.
// Change OPEN_MINUTE if the task's window opens at another time (see digest_status).
const OPEN_MINUTE = 12 * 60;
const DAY = 24 * 60 * 60 * 1000;
const MIN = 60 * 1000;
const startOfDay = (t) => Math.floor(t / DAY) * DAY;
let at = startOfDay(envkit.now()) + OPEN_MINUTE * MIN + 5 * MIN;
if (at <= envkit.now()) at += DAY;
await envkit.wait(at);
const opens = startOfDay(envkit.now()) + OPEN_MINUTE * MIN;
const r = await envkit.tools.list_posts({ since: opens - DAY, until: opens, sort: "comments", order: "desc" });
if (!r.ok) envkit.handover({ error: r.error });
envkit.handover({
  window_opened: new Date(opens).toISOString(),
  top: r.value.posts.slice(0, 10).map((p) => ({ id: p.id, num_comments: p.num_comments })),
});
`;
