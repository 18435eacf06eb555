import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { importEventsJsonl } from "../../../src/ingest/events-jsonl.js";

export const EXAMPLE_DIR = resolve(import.meta.dirname, "../../../examples/event-log");
export const EXAMPLE_LOG = join(EXAMPLE_DIR, "oncall.jsonl");
export const EXAMPLE_TASK = join(EXAMPLE_DIR, "task.yaml");

/** Imports the shipped example log (examples/event-log/oncall.jsonl) into a fresh world directory. */
export async function importExample(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-events-")), "world");
  await importEventsJsonl([EXAMPLE_LOG], dir, {
    name: "oncall-example",
    mapping: { time_field: "ts", kind_field: "type", id_field: "id" },
  });
  return dir;
}
