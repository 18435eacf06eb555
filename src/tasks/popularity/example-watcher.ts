/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const popularityExampleWatcher = `// watcher.example.js (popularity): every 10 minutes, list the root posts created since the previous
// check (newest first, one list_posts page) and hand over when new posts appeared.
const STEP = 10 * 60 * 1000;
let since = envkit.now();
for (;;) {
  await envkit.wait(envkit.now() + STEP);
  const until = envkit.now();
  const r = await envkit.tools.list_posts({ since, until, sort: "new" });
  if (!r.ok) envkit.handover({ error: r.error });
  if (r.value.posts.length > 0)
    envkit.handover({ new_posts: r.value.posts.map((p) => ({ id: p.id, num_comments: p.num_comments })), total: r.value.total });
  since = until;
}
`;
