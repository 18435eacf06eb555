import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kernel } from "../../../src/kernel/kernel.js";
import { LedgerWriter } from "../../../src/ledger/ledger-writer.js";
import { Redactor } from "../../../src/ledger/redactor.js";
import { Wallet } from "../../../src/ledger/wallet.js";
import { createBrokerOpsEnv } from "../../../src/tasks/broker-ops/environment.js";
import { BrokerOpsParams } from "../../../src/tasks/broker-ops/params.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { ToolRuntime } from "../../../src/tools/tool-runtime.js";
import type { WebChannel } from "../../../src/tools/web-host.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { END, START } from "./world.js";

/**
 * One broker-ops environment over a world with a clock the test moves, its tool runtime and a ledger
 * that redacts the run's secrets as the runner's does.
 */
export function brokerEnv(
  worldDir: string,
  params: unknown = {},
  o: { start?: number; end?: number; envSeed?: number } = {},
) {
  const start = o.start ?? START;
  const end = o.end ?? END;
  const world = WorldStore.open(worldDir);
  let now = start;
  const clock = () => now;
  const redactor = new Redactor();
  const ctx: TaskRunContext<BrokerOpsParams> = {
    params: BrokerOpsParams.parse(params),
    secrets: redactor,
    feedback: "none",
    oracleFeedback: null,
    sim_start: start,
    sim_end: end,
    view: world.at(clock),
    kernel: new Kernel({ start, end }),
    budget_usd: 20,
    env_seed: o.envSeed ?? 1234,
    world,
  };
  const env = createBrokerOpsEnv(ctx);
  const ledgerPath = join(mkdtempSync(join(tmpdir(), "relive-broker-ledger-")), "ledger.jsonl");
  const ledger = LedgerWriter.create(ledgerPath);
  ledger.redactWith(redactor);
  const wallet = new Wallet({ budget_usd: 20, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const runtime = new ToolRuntime({ tools: env.tools, limiters: {}, ledger, wallet, now: clock });
  const cookies = new Map<string, string>();
  /** a request to a host in process, as `channel` (browser requests carry the run's secret header), with a cookie jar */
  const request = async (
    channel: WebChannel,
    method: string,
    url: string,
    body?: { form?: Record<string, string>; json?: unknown },
  ) => {
    const headers: Record<string, string> = channel === "browser" ? { ...env.web.hosts.browserHeaders() } : {};
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let payload: string | undefined;
    if (body?.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      payload = new URLSearchParams(body.form).toString();
    } else if (body?.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    }
    const { response, log } = await env.web.hosts.dispatch(
      new Request(url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) }),
      channel,
    );
    for (const sc of response.setCookies) {
      const [pair, ...attrs] = sc.split(";");
      const [k, v] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)];
      if (v === "" || attrs.some((a) => /max-age=0/i.test(a))) cookies.delete(k);
      else cookies.set(k, v);
    }
    return { response, log };
  };
  return {
    ctx,
    env,
    runtime,
    world,
    cookies,
    request,
    setNow: (t: number) => {
      now = t;
    },
    ledgerText: () => readFileSync(ledgerPath, "utf8"),
    close: async () => {
      await env.dispose();
      ledger.close();
      world.close();
    },
  };
}
