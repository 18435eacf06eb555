import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { BRANCHES_DIR, branchDirName, keepSchedule, rankBranches } from "../learning/best-of-n.js";
import {
  type LedgerEvent,
  LedgerEvent as LedgerEventSchema,
  type NewLedgerEvent,
  PruneEvent,
} from "../ledger/events.js";
import { LedgerFormatError, readLedgerLines } from "../ledger/ledger-reader.js";
import { LedgerWriter } from "../ledger/ledger-writer.js";
import { Wallet } from "../ledger/wallet.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { bestOfNOf } from "./best-of-n-config.js";
import { dayStart, readCheckpoint } from "./checkpoint.js";
import { ConfigError, type RunConfig } from "./config.js";
import { providerFailureOf } from "./provider-failure.js";
import { rescoreRun } from "./rescore.js";
import { type ResolvedRun, resolveRun } from "./resolve-run.js";
import type { Results } from "./results.js";
import { executeStoppable, type RunOptions, resumeRun } from "./runner.js";

/** `branches/prunes.json`: the prunes decided so far, so an interrupted Best-of-N run continues where it was. */
const PrunesFile = z.array(PruneEvent.omit({ seq: true }));
type PruneRecord = z.infer<typeof PrunesFile>[number];
const PRUNES_FILE = "prunes.json";

/** Branch k's config: the run's without `agent.learning`, with `agent.branch: k` (branch 0: none, the run itself). */
export function branchConfig(config: RunConfig, k: number): RunConfig {
  const { learning: _learning, branch: _branch, ...agent } = config.agent;
  return { ...config, agent: k === 0 ? agent : { ...agent, branch: k } };
}

const writeJsonAtomic = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};

/**
 * Runs (or continues) a Best-of-N + Prune run in `r.runDir` (src/learning/README.md): every branch is
 * an ordinary run directory `branches/b<k>/` (branch k's config), paused after each prune day with the
 * pause machinery (`--stop-after-day`) and continued with `relive resume`'s verified re-run. At each
 * prune day the branches still running are ranked by their settled score on [sim_start, prune instant)
 * (ties: lowest branch index) and the best `keep[j]` go on; the survivor then runs to the end. The
 * run's ledger is the survivor's, line for line (its `run_start` carrying this run's id), with one
 * `prune` line at each prune instant that names every branch's score, spend and record and books the
 * stopped branches' spend; results.json is rebuilt from that ledger alone (as `relive rescore` does).
 */
export async function runBestOfN(r: ResolvedRun, o: RunOptions): Promise<{ runDir: string; results: Results }> {
  const b = bestOfNOf(r.config);
  if (b === null) throw new Error("internal: runBestOfN on a run without agent.learning: best-of-n");
  const keep = keepSchedule(b);
  const dir = join(r.runDir, BRANCHES_DIR);
  mkdirSync(dir, { recursive: true });
  const prunesPath = join(dir, PRUNES_FILE);
  const prunes: PruneRecord[] = existsSync(prunesPath) ? readPrunes(prunesPath) : [];
  const branchOpts: RunOptions = { ...o, preflight: false };
  delete branchOpts.stopAfterDay;
  try {
    let alive = Array.from({ length: b.n }, (_, k) => k);
    for (const [j, day] of b.prune_days.entries()) {
      const done = prunes[j];
      if (done !== undefined) {
        if (done.day !== day)
          throw new ConfigError(`${prunesPath}: prune ${j + 1} is after day ${done.day}, the config says ${day}`);
        alive = done.branches.filter((x) => x.kept).map((x) => x.branch);
        continue;
      }
      const at = dayStart(r.sim_start, day + 1);
      const scored = [];
      for (const k of alive) {
        await branchToPause(r, dir, k, day, branchOpts);
        scored.push({ branch: k, ...branchAtPrune(r, join(dir, branchDirName(k)), at) });
      }
      const ranking = rankBranches(scored, r.task.metrics.direction);
      const kept = new Set(ranking.slice(0, keep[j]!));
      prunes.push({
        t: at,
        type: "prune",
        day,
        branches: scored.map((x) => ({ ...x, kept: kept.has(x.branch) })),
      });
      writeJsonAtomic(prunesPath, prunes);
      alive = alive.filter((k) => kept.has(k));
    }
    if (alive.length !== 1) throw new Error(`internal: ${alive.length} Best-of-N branches left after the last prune`);
    const survivor = alive[0]!;
    const survivorDir = join(dir, branchDirName(survivor));
    if (!existsSync(join(survivorDir, "results.json"))) await resumeRun(survivorDir, branchOpts);
    writeRunLedger(r, survivorDir, survivor, prunes);
  } catch (err) {
    // a provider failure is continued with `relive resume` of this run, not of its branch
    const failure = providerFailureOf(err);
    if (failure !== null) failure.runDir = r.runDir;
    throw err;
  }
  const { results, diffs } = await rescoreRun(r.runDir, { ...o, runsDir: o.runsDir });
  if (diffs.length)
    throw new Error(
      `internal: the Best-of-N ledger of ${r.runDir} rescored differently from its survivor (${diffs.length} outcomes, first ${diffs[0]!.key})`,
    );
  return { runDir: r.runDir, results };
}

function readPrunes(path: string): PruneRecord[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ConfigError(`${path}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = PrunesFile.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `${path}: not a Best-of-N prune record: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}

/** Brings branch k to its pause after `day`: a new branch run, or its directory continued (verified re-run). */
async function branchToPause(r: ResolvedRun, dir: string, k: number, day: number, o: RunOptions): Promise<void> {
  const branchDir = join(dir, branchDirName(k));
  if (existsSync(join(branchDir, "config.json"))) {
    const cp = readCheckpoint(branchDir);
    if (cp?.paused_after_day === day) return;
    if (existsSync(join(branchDir, "results.json")) || (cp !== null && cp.paused_after_day > day))
      throw new ConfigError(`${branchDir}: the branch went past day ${day} before its prune was recorded`);
    await resumeRun(branchDir, { ...o, stopAfterDay: day });
    return;
  }
  const rb: ResolvedRun = { ...resolveRun(branchConfig(r.config, k), o), runDir: branchDir };
  rmSync(branchDir, { recursive: true, force: true });
  mkdirSync(join(branchDir, "workspace"), { recursive: true });
  writeJsonAtomic(join(branchDir, "config.json"), rb.resolvedConfig);
  LedgerWriter.create(join(branchDir, "ledger.jsonl")).close();
  await executeStoppable(rb, [], { ...o, stopAfterDay: day });
}

/** A paused branch's settled score on [sim_start, at), its spend and its record up to the pause. */
function branchAtPrune(
  r: ResolvedRun,
  branchDir: string,
  at: number,
): Omit<PruneRecord["branches"][number], "branch" | "kept"> {
  const cp = readCheckpoint(branchDir);
  if (cp === null) throw new Error(`internal: ${branchDir} is not paused`);
  const ledgerPath = join(branchDir, "ledger.jsonl");
  const lines = readLedgerLines(ledgerPath).slice(0, cp.ledger_lines);
  const events = lines.map((line, i) => parseLine(ledgerPath, line, i));
  const wallet = new Wallet({ budget_usd: r.budget_usd, domain_caps: r.config.domain_budgets });
  for (const e of events) wallet.apply(e);
  return {
    score: settledScore(r, events, at),
    spent_usd: wallet.spent,
    spend: wallet.spendEntries(),
    ledger_lines: lines.length,
    ledger_sha256: createHash("sha256")
      .update(lines.map((l) => `${l}\n`).join(""))
      .digest("hex"),
  };
}

function parseLine(path: string, line: string, i: number): LedgerEvent {
  const parsed = LedgerEventSchema.safeParse(JSON.parse(line));
  if (!parsed.success) throw new LedgerFormatError(path, i + 1, parsed.error.issues[0]?.message ?? "invalid");
  return parsed.data;
}

/**
 * The primary a fresh scorer over [sim_start, at) gives after the ledger's lines before `at` (the
 * anytime curve's definition at a day end): only outcomes settled by the prune count.
 */
function settledScore(r: ResolvedRun, events: readonly LedgerEvent[], at: number): number | null {
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  try {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: at, world, truth, params: r.params });
    for (const e of events) {
      if (e.t >= at) break;
      if (e.type === "outcome") continue;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(at);
    return scorer.report().primary.value;
  } finally {
    world.close();
    truth.close();
  }
}

/**
 * The run's ledger: the survivor's lines in order, its run_start with this run's id, and each prune
 * line right after the survivor's last line before that prune (its pause record's line count).
 */
function writeRunLedger(r: ResolvedRun, survivorDir: string, survivor: number, prunes: readonly PruneRecord[]): void {
  const path = join(survivorDir, "ledger.jsonl");
  const events = readLedgerLines(path).map((line, i) => parseLine(path, line, i));
  const first = events[0];
  if (first?.type !== "run_start") throw new Error(`internal: ${path} does not open with run_start`);
  const cuts = prunes.map((p) => {
    const mine = p.branches.find((x) => x.branch === survivor);
    if (!mine?.kept)
      throw new Error(`internal: the survivor b${survivor} was not kept at the prune after day ${p.day}`);
    return mine.ledger_lines;
  });
  const out: NewLedgerEvent[] = [];
  const strip = ({ seq: _seq, ...e }: LedgerEvent): NewLedgerEvent => e;
  const { seq: _seq, ...start } = first;
  let p = 0;
  for (const [i, e] of events.entries()) {
    while (p < prunes.length && cuts[p] === i) out.push(prunes[p++]!);
    out.push(i === 0 ? { ...start, run_id: r.runId } : strip(e));
  }
  while (p < prunes.length) out.push(prunes[p++]!);
  const target = join(r.runDir, "ledger.jsonl");
  const tmp = `${target}.tmp`;
  rmSync(tmp, { force: true });
  const w = LedgerWriter.create(tmp);
  try {
    for (const e of out) w.append(e);
  } finally {
    w.close();
  }
  renameSync(tmp, target);
}
