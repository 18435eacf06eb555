/**
 * The task's example watcher (spec/harness.md, watcher): seeded into the watcher workspace as
 * `watcher.example.js`; the scripted agent runs it under `--trigger watcher`.
 */
export const eventResponseExampleWatcher = `// watcher.example.js (event-response): every 5 minutes, list the events since this program started
// and hand over as soon as one needs a response and has none yet (one list_events page per check).
// Copy it, change STEP, and start it with run_program (an \`until\` stops it at your next planned wake).
const STEP = 5 * 60 * 1000;
const since = envkit.now();
for (;;) {
  await envkit.wait(envkit.now() + STEP);
  const r = await envkit.tools.list_events({ since });
  if (!r.ok) envkit.handover({ error: r.error });
  const open = r.value.events.filter((e) => e.needs_response && e.response === null);
  if (open.length > 0)
    envkit.handover({ open: open.map((e) => ({ id: e.id, kind: e.kind, due: e.due })), checked_at: new Date(envkit.now()).toISOString() });
}
`;
