import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PolicyApi, PolicyRun, ReferencePolicy } from "../../../src/tasks/task.js";
import type { EventRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (hhmm: string) => Date.parse(`2026-03-02T${hhmm}:00Z`);

/** A world holding `events` (visible at their time unless given), window 03-02 00:00 → 06:00. */
export function eventWorld(events: (Omit<EventRow, "visible_at"> & { visible_at?: number })[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-ev-tiny-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "tiny-events",
    window: { start: T("00:00"), end: T("06:00") },
    builder: "test",
    builder_version: "1",
  });
  b.insert(
    "event",
    events.map((e) => ({ ...e, visible_at: e.visible_at ?? e.t })),
  );
  b.finish();
  return dir;
}

/** Writes a task file and returns its path. */
export function taskFile(yaml: string): string {
  const f = join(mkdtempSync(join(tmpdir(), "relive-ev-task-")), "task.yaml");
  writeFileSync(f, yaml);
  return f;
}

export const TINY_TASK = `
respond:
  alert:
    deadline: 30m
    action: { field: severity, values: { critical: escalate, warning: ack } }
  page: 10m
`;

/** A scripted policy making exactly `steps` (at their instants, in order), recording every result. */
export function stepsPolicy(
  steps: { at: number; tool: string; args: unknown }[],
  results: { tool: string; args: unknown; ok: boolean; value?: unknown; error?: string }[],
): ReferencePolicy {
  return {
    name: "steps",
    description: "test steps",
    start(api: PolicyApi): PolicyRun {
      return {
        async act() {
          for (const s of steps.filter((x) => x.at === api.now())) {
            const r = await api.call(s.tool, s.args);
            results.push({ tool: s.tool, args: s.args, ...r });
          }
        },
        nextWake: (now) => steps.find((s) => s.at > now)?.at ?? null,
      };
    },
  };
}
