import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { startModuleWorker } from "../../src/world/module-worker.js";

/** the first message the worker posts on its port (a load or start failure), and its exit */
async function firstMessage(file: string, run: string, sources: boolean): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  const shared = new SharedArrayBuffer(8);
  const worker = startModuleWorker(file, run, { shared, port: port2 }, "Atomics.store(s, 0, 1);", { sources });
  try {
    return await new Promise((resolve, reject) => {
      port1.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    port1.close();
    await worker.terminate();
  }
}

describe("startModuleWorker", () => {
  it.each([true, false])(
    "loads a world module (through tsx: %s) and reports a failure to start it on the port",
    async (sources) => {
      // the module loads (through tsx from the sources, or its compiled twin): only the function is missing
      expect(await firstMessage("news-index-worker", "noSuchFunction", sources)).toEqual({
        error: expect.stringMatching(/^cannot start the worker: .*noSuchFunction.* is not a function/),
      });
      expect(await firstMessage("no-such-module", "run", sources)).toEqual({
        error: expect.stringMatching(/^cannot start the worker: .*(Cannot find module|no-such-module)/),
      });
    },
  );
});
