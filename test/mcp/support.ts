import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { finishTool } from "../../src/agent/react-agent.js";
import type { Kernel } from "../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { getTask } from "../../src/tasks/registry.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import { sleepTool } from "../../src/triggers/sleep.js";
import { IntentSlot } from "../../src/triggers/trigger.js";
import { WorldStore } from "../../src/world/world-store.js";
import { options } from "../run/helpers.js";

/** A 3-day daily-digest window (2 scored days). */
export const DIGEST_3D = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };

/**
 * The in-process runtime an LLM actor of `cfg` gets (task tools, sleep, finish) over the run's world,
 * at a clock the test sets: what MCP schemas and rejections are compared with.
 */
export function inProcess(cfg: RunConfigInput) {
  const r = resolveRun(parseRunConfig({ ...cfg, agent: { model: "scripted:top-comments" } }), options());
  const world = WorldStore.open(r.worldDir);
  const task = getTask(r.config.task);
  const clock = { t: r.sim_start };
  const run = task.open({
    params: r.params,
    feedback: "none",
    oracleFeedback: null,
    sim_start: r.sim_start,
    sim_end: r.sim_end,
    view: world.at(() => clock.t),
    kernel: undefined as unknown as Kernel,
    budget_usd: r.budget_usd,
    env_seed: r.env_seed,
    world,
  });
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-mcp-ref-")), "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const slot = new IntentSlot();
  const runtime = new ToolRuntime({
    tools: [...run.tools(), sleepTool(slot), finishTool(slot)],
    limiters: run.limiters(),
    ledger,
    wallet,
    now: () => clock.t,
  });
  return {
    docs: () => runtime.docs(),
    at: (t: string) => {
      clock.t = Date.parse(t);
    },
    /** the text an in-process agent sees for this call */
    text: async (name: string, args: unknown) => {
      const res = await runtime.call("agent", name, args);
      return res.ok ? JSON.stringify(res.value) : `ERROR: ${res.error}`;
    },
    close: () => {
      ledger.close();
      world.close();
    },
  };
}

export interface Reply {
  isError: boolean;
  text: string;
  clock: string;
}

/**
 * One MCP tool call through the official client: the tool text and the clock line (the clock item
 * starts with a line break, so joined items read `<text>\n<clock>`; returned without it).
 */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Reply> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text: string }[];
  expect(content.map((c) => c.type)).toEqual(["text", "text"]);
  expect(content[1]!.text.startsWith("\n")).toBe(true);
  return { isError: res.isError === true, text: content[0]!.text, clock: content[1]!.text.slice(1) };
}

const nextAt1230 = (iso: string) => {
  const d = new Date(Date.parse(iso));
  const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12, 30);
  return new Date(t > d.getTime() ? t : t + 86_400_000).toISOString();
};

/**
 * The calls of the scripted `top-comments` policy, made by an MCP client: sleep to 12:30, then each
 * day digest_status, list_posts(candidates, by comments) and digest(top ids), sleep to the next 12:30.
 * Returns the replies of the clock calls.
 */
export async function driveTopComments(client: Client): Promise<Reply[]> {
  const clocks: Reply[] = [];
  let r = await call(client, "sleep", { until: nextAt1230("2026-03-01T00:00:00Z") });
  clocks.push(r);
  while (r.clock.startsWith("(woke at")) {
    const now = /^\(woke at (\S+) for/.exec(r.clock)![1]!;
    const status = JSON.parse((await call(client, "digest_status", {})).text);
    const page = JSON.parse(
      (
        await call(client, "list_posts", {
          since: status.today.candidates.since,
          until: status.today.candidates.until,
          sort: "comments",
          order: "desc",
        })
      ).text,
    );
    const ids = (page.posts as { id: string }[]).slice(0, status.digest_size).map((p) => p.id);
    const d = await call(client, "digest", { root_ids: ids });
    expect(d.isError).toBe(false);
    r = await call(client, "sleep", { until: nextAt1230(now) });
    clocks.push(r);
  }
  return clocks;
}

/** A ledger without what differs by construction: seq, the run_start's id and agent, and the sleep tool's call lines. */
export function comparable(events: LedgerEvent[]) {
  return events
    .filter((e) => !(e.type === "tool_call" && e.tool === "sleep"))
    .map((e) => {
      const { seq: _seq, ...rest } = e;
      if (rest.type === "run_start") {
        const { run_id: _id, agent: _agent, ...keep } = rest;
        return keep;
      }
      return rest;
    });
}
