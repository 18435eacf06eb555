import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Kernel } from "../kernel/kernel.js";
import type { EventOf, LedgerEvent } from "../ledger/events.js";
import { readLedger } from "../ledger/ledger-reader.js";
import { Wallet } from "../ledger/wallet.js";
import { type Outcome, releasedAtOf } from "../tasks/task.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { buildResults } from "./build-results.js";
import { oracleFeedbackOf } from "./feedback-tool.js";
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
  const { r, events } = await loadFinishedRun(runDir, o);
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  try {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params });
    const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
    const rescored: Outcome[] = [];
    const rebuilt: LedgerEvent[] = [];
    const pushOutcomes = (xs: Outcome[]) => {
      for (const x of xs) {
        rescored.push(x);
        rebuilt.push({
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
    for (const e of events) {
      if (e.type === "outcome") continue;
      pushOutcomes(scorer.settle(e.t));
      scorer.onEvent(e);
      wallet.apply(e);
      rebuilt.push(e);
    }
    pushOutcomes(scorer.settle(r.sim_end));

    const recorded = events.filter((e): e is EventOf<"outcome"> => e.type === "outcome");
    const diffs = diffOutcomes(recorded, rescored);
    const kernel = new Kernel({ start: r.sim_start, end: r.sim_end });
    const run = r.task.open({
      params: r.params,
      feedback: r.config.feedback,
      oracleFeedback: r.config.feedback === "oracle" ? oracleFeedbackOf(events, () => kernel.now()) : null,
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
    const results = buildResults({ r, events: rebuilt, report: scorer.report(), wallet, world, truth, commitTools });
    const out = join(runDir, "results.json");
    writeFileSync(`${out}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
    renameSync(`${out}.tmp`, out);
    return { results, diffs };
  } finally {
    world.close();
    truth.close();
  }
}

/** A finished run's resolved config and ledger (for rescoring and judging; the world must still resolve). */
export async function loadFinishedRun(runDir: string, o: WorldLocation & { runsDir: string }) {
  const cfgPath = join(runDir, "config.json");
  if (!existsSync(cfgPath)) throw new Error(`${runDir} is not a run directory (no config.json)`);
  const saved = readRunConfigFile(cfgPath);
  await loadConfigTaskModule(saved.config);
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
  const events = readLedger(join(runDir, "ledger.jsonl"));
  if (!events.some((e) => e.type === "run_end"))
    throw new Error(
      `${runDir}: the ledger has no run_end (the run did not finish); use \`relive resume ${runDir}\` first`,
    );
  return { r, events };
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
