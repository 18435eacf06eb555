/**
 * Entry point of a job process (forked by `JobChild`): runs grid jobs one at a time, on request
 * of its parent over IPC. It exits as soon as the parent is gone (the IPC channel closes), so a
 * killed worker leaves no orphan writing a run directory that a queue has handed to another worker.
 */

import { keepWorldsOpen } from "../../world/world-lease.js";
import { type ChildMessage, ParentMessageSchema } from "./child-protocol.js";
import { runGridJob } from "./grid-job.js";

// the runs of this process share their opened worlds (and the caches on them); a rebuilt world is opened afresh
keepWorldsOpen();

const send = (m: ChildMessage) => {
  if (process.connected) process.send?.(m);
};

process.on("disconnect", () => process.exit(1));

let busy = false;
process.on("message", async (raw: unknown) => {
  const parsed = ParentMessageSchema.safeParse(raw);
  if (!parsed.success) {
    process.stderr.write(`job process: ignoring a malformed message: ${parsed.error.message}\n`);
    return;
  }
  const msg = parsed.data;
  switch (msg.type) {
    case "run": {
      if (busy) {
        send({ type: "error", seq: msg.seq, name: "Error", message: "job process is busy (internal error)" });
        return;
      }
      busy = true;
      try {
        const summary = await runGridJob(msg.cell, {
          ...msg.options,
          log: (m) => send({ type: "log", seq: msg.seq, message: m }),
        });
        send({ type: "result", seq: msg.seq, summary });
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        send({ type: "error", seq: msg.seq, name: e.name, message: e.message });
      } finally {
        busy = false;
      }
      return;
    }
    default: {
      const never: never = msg.type;
      throw new Error(`unhandled message ${String(never)}`);
    }
  }
});

send({ type: "ready", pid: process.pid });
