/**
 * Provider failures that stop a run before it scores (spec/harness.md "Replies, failures and state"):
 * the launch preflight, and the resume rule that lets a stopped run continue once its endpoint works.
 */
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelError, ProviderFailedError } from "../models/model.js";
import type { ResolvedRun } from "./resolve-run.js";

/** The ProviderFailedError behind `err` (the kernel wraps an actor's failure with `cause`), or null. */
export function providerFailureOf(err: unknown): ProviderFailedError | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (e instanceof ProviderFailedError) return e;
  return null;
}

/**
 * A cheap request to the run's endpoint at launch (GET /models and the like; never a billed
 * generation): a refused key, an unknown model or an unreachable server fails before any run
 * directory exists. Retryable failures (429, 5xx, a timeout) do not stop a launch: the episode's own
 * retries deal with them; a network failure is tried `attempts` times first.
 */
export async function preflight(
  r: ResolvedRun,
  o: { attempts?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<void> {
  if (r.agent.kind !== "model" || r.agent.created === null) return;
  const model = r.agent.created.model;
  if (!model.preflight) return;
  const attempts = o.attempts ?? 3;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  for (let i = 1; ; i++) {
    try {
      await model.preflight();
      return;
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      if (err.kind === "network" && i < attempts) {
        await sleep(500 * 2 ** (i - 1));
        continue;
      }
      if (err.endpointBroken) throw new ProviderFailedError(r.agent.name, model.endpoint, err, "preflight");
      return;
    }
  }
}

/**
 * A run stopped by a provider failure ends its ledger with the failed call's attempts and a
 * `provider_failed` note. Resuming re-runs from sim_start and then asks the endpoint again, so those
 * tail lines (which the live call will now replace) are moved from ledger.jsonl to
 * `provider-failures.jsonl` beside it (kept for the record); returns the remaining lines.
 */
export function cutProviderFailureTail(runDir: string, lines: readonly string[]): readonly string[] {
  const last = lines.at(-1);
  if (last === undefined) return lines;
  const note = JSON.parse(last) as { type?: string; kind?: string; actor?: string };
  if (note.type !== "note" || note.kind !== "provider_failed") return lines;
  let cut = lines.length - 1;
  let callIndex: number | null = null;
  while (cut > 0) {
    const e = JSON.parse(lines[cut - 1]!) as { type?: string; actor?: string; status?: string; call_index?: number };
    if (e.type !== "llm_call" || e.actor !== note.actor || e.status !== "error") break;
    if (callIndex !== null && e.call_index !== callIndex) break;
    callIndex = e.call_index ?? null;
    cut--;
  }
  const kept = lines.slice(0, cut);
  appendFileSync(join(runDir, "provider-failures.jsonl"), `${lines.slice(cut).join("\n")}\n`);
  const path = join(runDir, "ledger.jsonl");
  writeFileSync(`${path}.tmp`, kept.length ? `${kept.join("\n")}\n` : "");
  renameSync(`${path}.tmp`, path);
  return kept;
}
