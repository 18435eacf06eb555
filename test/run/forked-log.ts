import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importEventsJsonl } from "../../src/ingest/events-jsonl.js";
import { EXAMPLE_LOG } from "../tasks/event-response/example-world.js";

/** The fork instant of the two example futures: the logs agree on everything before it. */
export const FORK_T = Date.parse("2026-03-02T12:00:00Z");

/** Rows of the shipped example log after FORK_T are replaced by these (another future). */
const OTHER_FUTURE = [
  { ts: "2026-03-02T12:05:00Z", type: "page", id: "P-901", service: "edge", summary: "TLS handshake failures" },
  { ts: "2026-03-02T13:40:00Z", type: "alert", id: "A-901", service: "edge", severity: "critical", summary: "5xx" },
  { ts: "2026-03-02T16:00:00Z", type: "page", id: "P-902", service: "db", summary: "replica down" },
  { ts: "2026-03-02T20:10:00Z", type: "alert", id: "A-902", service: "db", severity: "warning", summary: "slow" },
  { ts: "2026-03-03T08:00:00Z", type: "page", id: "P-903", service: "auth", summary: "login errors" },
];

/**
 * Two worlds whose logs are identical before FORK_T and different after it: the shipped example,
 * and the example with every row at or after FORK_T replaced by OTHER_FUTURE.
 */
export async function forkedWorlds(): Promise<{ same: string; other: string }> {
  const dir = mkdtempSync(join(tmpdir(), "relive-fork-"));
  const rows = readFileSync(EXAMPLE_LOG, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { ts: string });
  const before = rows.filter((r) => Date.parse(r.ts) < FORK_T);
  const otherLog = join(dir, "other.jsonl");
  writeFileSync(otherLog, `${[...before, ...OTHER_FUTURE].map((r) => JSON.stringify(r)).join("\n")}\n`);
  const mapping = { time_field: "ts", kind_field: "type", id_field: "id" };
  const same = join(dir, "same");
  const other = join(dir, "other");
  await importEventsJsonl([EXAMPLE_LOG], same, { name: "oncall-example", mapping });
  await importEventsJsonl([otherLog], other, { name: "oncall-example", mapping });
  return { same, other };
}
