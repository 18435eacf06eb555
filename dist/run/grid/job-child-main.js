import { ParentMessageSchema } from "./child-protocol.js";
import { runGridJob } from "./grid-job.js";
const send = (m) => {
  if (process.connected) process.send?.(m);
};
process.on("disconnect", () => process.exit(1));
let busy = false;
process.on("message", async (raw) => {
  const parsed = ParentMessageSchema.safeParse(raw);
  if (!parsed.success) {
    process.stderr.write(`job process: ignoring a malformed message: ${parsed.error.message}
`);
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
          log: (m) => send({ type: "log", seq: msg.seq, message: m })
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
      const never = msg.type;
      throw new Error(`unhandled message ${String(never)}`);
    }
  }
});
send({ type: "ready", pid: process.pid });
//# sourceMappingURL=job-child-main.js.map
