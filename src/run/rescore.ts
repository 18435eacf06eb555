import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Kernel } from "../kernel/kernel.js";
import type { EventOf } from "../ledger/events.js";
import { ledgerEvents, ledgerLines, readLedger } from "../ledger/ledger-reader.js";
import { Wallet } from "../ledger/wallet.js";
import { type Outcome, releasedAtOf } from "../tasks/task.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { ResultsTally } from "./build-results.js";
import { oracleFeedbackOf } from "./feedback-tool.js";
import { prepareRunWorld } from "./prepare-run-world.js";
import { recordedEndpoint, resolveRun } from "./resolve-run.js";
import type { Results } from "./results.js";
import { assertSameTaskModule, readRunConfigFile } from "./run-config-file.js";
import { loadConfigTaskModule } from "./task-module.js";
import type { WorldLocation } from "./world-resolver.js";

export interface OutcomeDiff {
  key: string;
  recorded: { status: string; credit: number | null } | null;
  rescored: { status: string; credit: number | null } | null;
}

/**
 * `relive rescore RUNDIR`: replays the ledger's commitments through the current scorer, never
 * rewriting the ledger; writes results.json with the current scorer_version and lists outcomes that
 * differ from those recorded.
 */
export async function rescoreRun(
  runDir: string,
  o: WorldLocation & { runsDir: string },
): Promise<{ results: Results; diffs: OutcomeDiff[] }> {
  const r = await resolveFinishedRun(runDir, o);
  const ledgerPath = join(runDir, "ledger.jsonl");
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  try {
    // the task's commit tools (no-op wakes) first: the ledger is then read once, line by line
    const recorded: EventOf<"outcome">[] = [];
    const kernel = new Kernel({ start: r.sim_start, end: r.sim_end });
    const run = r.task.open({
      params: r.params,
      feedback: r.config.feedback,
      oracleFeedback: r.config.feedback === "oracle" ? oracleFeedbackOf(recorded, () => kernel.now()) : null,
      sim_start: r.sim_start,
      sim_end: r.sim_end,
      view: world.at(() => kernel.now(), { search: r.config.search ?? "global" }),
      kernel,
      budget_usd: r.budget_usd,
      env_seed: r.env_seed,
      world,
    });
    const tools = run.tools();
    await run.dispose();
    const commitTools = new Set(tools.flatMap((t) => (t.kind === "commit" ? [t.name] : [])));

    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params });
    const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
    const tally = new ResultsTally(r, world, truth, commitTools);
    const rescored: Outcome[] = [];
    const pushOutcomes = (xs: Outcome[]) => {
      for (const x of xs) {
        rescored.push(x);
        tally.observe({
          type: "outcome",
          seq: -1,
          t: x.t,
          key: x.key,
          status: x.status,
          credit: x.credit,
          released_at: releasedAtOf(x),
          detail: x.detail,
        });
      }
    };
    for (const e of ledgerEvents(ledgerPath)) {
      if (e.type === "outcome") {
        recorded.push(e);
        continue;
      }
      pushOutcomes(scorer.settle(e.t));
      scorer.onEvent(e);
      wallet.apply(e);
      tally.observe(e);
    }
    pushOutcomes(scorer.settle(r.sim_end));

    const diffs = diffOutcomes(recorded, rescored);
    const results = tally.results({ r, report: scorer.report(), wallet });
    const out = join(runDir, "results.json");
    writeFileSync(`${out}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
    renameSync(`${out}.tmp`, out);
    return { results, diffs };
  } finally {
    world.close();
    truth.close();
  }
}

/**
 * A finished run's resolved config (the world must still resolve); refused when its ledger has no
 * run_end, its last line once a run finished.
 */
export async function resolveFinishedRun(runDir: string, o: WorldLocation & { runsDir: string }) {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  await loadConfigTaskModule(saved.config);
  await prepareRunWorld(saved.config, o);
  const r = {
    ...resolveRun(saved.config, {
      ...o,
      allowOracle: true,
      checkModel: false,
      endpoint: recordedEndpoint(saved as Parameters<typeof recordedEndpoint>[0]),
    }),
    runDir,
  };
  assertSameTaskModule(saved, r, runDir);
  let last: string | null = null;
  for (const line of ledgerLines(join(runDir, "ledger.jsonl"))) last = line;
  if (last === null || !isRunEnd(last))
    throw new Error(
      `${runDir}: the ledger has no run_end (the run did not finish); use \`relive resume ${runDir}\` first`,
    );
  return r;
}

const isRunEnd = (line: string) => {
  try {
    const e: unknown = JSON.parse(line);
    return typeof e === "object" && e !== null && "type" in e && e.type === "run_end";
  } catch {
    return false;
  }
};

/** A finished run's resolved config and its whole ledger (judging, benchmarks, tests). */
export async function loadFinishedRun(runDir: string, o: WorldLocation & { runsDir: string }) {
  const r = await resolveFinishedRun(runDir, o);
  return { r, events: readLedger(join(runDir, "ledger.jsonl")) };
}

function diffOutcomes(recorded: EventOf<"outcome">[], rescored: Outcome[]): OutcomeDiff[] {
  const a = new Map(recorded.map((x) => [x.key, { status: x.status, credit: x.credit }]));
  const b = new Map(rescored.map((x) => [x.key, { status: x.status, credit: x.credit }]));
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.flatMap((key) => {
    const x = a.get(key) ?? null;
    const y = b.get(key) ?? null;
    return x && y && x.status === y.status && x.credit === y.credit ? [] : [{ key, recorded: x, rescored: y }];
  });
}
