import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DAY_MS, isoInstant, startOfUtcDay } from "../../common/time.js";
import { LedgerEvent } from "../../ledger/events.js";
import { SUBMIT_FORECASTS_TOOL, SubmitForecastsArgs } from "./forecast-args.js";

/** the ledger file of a run directory */
const LEDGER_FILE = "ledger.jsonl";

/** A resolved anchor: the other run's directory (absolute) and the sha256 of its ledger when it was named. */
export interface AnchorRef {
  run_dir: string;
  ledger_sha256: string;
}

function sha256Hex(buf: Buffer): string {
  return createHash("sha256").update(buf).digest("hex");
}

/** The ledger bytes of `runDir` and their sha256, or an error naming what is missing. */
function readAnchorLedger(runDir: string): { ok: true; bytes: Buffer; sha256: string } | { ok: false; error: string } {
  const path = join(runDir, LEDGER_FILE);
  if (!existsSync(path)) return { ok: false, error: `no ${LEDGER_FILE} in ${runDir}` };
  const bytes = readFileSync(path);
  return { ok: true, bytes, sha256: sha256Hex(bytes) };
}

const PINNED = /^(.+)@sha256:([0-9a-f]{64})$/;

/** A resolved `anchor_from` value: `<absolute run dir>@sha256:<ledger hash>`. */
export function anchorRefOf(v: string): AnchorRef {
  const m = PINNED.exec(v);
  if (!m) throw new Error(`anchor_from: "${v}" is not resolved (<run dir>@sha256:<hex>)`);
  return { run_dir: m[1]!, ledger_sha256: m[2]! };
}

/**
 * `task_params.anchor_from`: a run directory, resolved at config time to
 * `<absolute run dir>@sha256:<sha256 of its ledger.jsonl>` (what the resolved config, and so the
 * run id, records: one string, so the report sees one ablation axis), or that pinned form itself,
 * whose hash must still match the ledger. A missing ledger or a changed one is a config error.
 */
export const AnchorFrom = z
  .string()
  .min(1)
  .transform((v, ctx): string => {
    const m = PINNED.exec(v);
    const runDir = resolve(m ? m[1]! : v);
    const led = readAnchorLedger(runDir);
    if (!led.ok) {
      ctx.addIssue({ code: "custom", message: `anchor run: ${led.error}` });
      return z.NEVER;
    }
    if (m && m[2] !== led.sha256) {
      ctx.addIssue({
        code: "custom",
        message: `anchor run ${runDir}: its ledger changed (sha256 ${led.sha256}, the config records ${m[2]})`,
      });
      return z.NEVER;
    }
    return `${runDir}@sha256:${led.sha256}`;
  });

/** The day-0 forecasts of an anchor run: question id → outcomes, and the run's window start. */
export interface AnchorForecasts {
  sim_start: number;
  forecasts: Map<string, Record<string, number>>;
}

/**
 * Reads the anchor run's day-0 forecasts through its ledger (every line validated with the ledger
 * schema; the bytes must still hash to the pinned sha256): per question, the last accepted
 * `submit_forecasts` commitment before the end of the run's first UTC day (the forecast standing
 * when day 0 was scored). Throws naming the file and what is wrong.
 */
export function loadAnchorForecasts(pinned: string): AnchorForecasts {
  const ref = anchorRefOf(pinned);
  const led = readAnchorLedger(ref.run_dir);
  if (!led.ok) throw new Error(`anchor_from: ${led.error}`);
  if (led.sha256 !== ref.ledger_sha256)
    throw new Error(
      `anchor_from: the ledger of ${ref.run_dir} changed (sha256 ${led.sha256}, the run config records ${ref.ledger_sha256})`,
    );
  const path = join(ref.run_dir, LEDGER_FILE);
  const text = led.bytes.toString("utf8");
  const end = text.lastIndexOf("\n") + 1;
  const lines = end === 0 ? [] : text.slice(0, end - 1).split("\n");
  const events: LedgerEvent[] = lines.map((line, i) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new Error(`anchor_from: ${path}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = LedgerEvent.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `anchor_from: ${path}:${i + 1}: not a ledger event (${issue.path.join(".") || "(root)"}: ${issue.message})`,
      );
    }
    return parsed.data;
  });
  const start = events[0];
  if (start?.type !== "run_start") throw new Error(`anchor_from: ${path}: the first line is not run_start`);
  if (start.task !== "open-forecast")
    throw new Error(`anchor_from: ${path}: a run of task ${start.task}, not open-forecast`);
  const day0End = startOfUtcDay(start.sim_start) + DAY_MS;
  const forecasts = new Map<string, Record<string, number>>();
  for (const e of events) {
    if (e.type !== "commitment" || e.tool !== SUBMIT_FORECASTS_TOOL || e.t >= day0End) continue;
    const a = SubmitForecastsArgs.safeParse(e.args);
    if (!a.success)
      throw new Error(`anchor_from: ${path}: seq ${e.seq} (${isoInstant(e.t)}): not submit_forecasts arguments`);
    forecasts.set(a.data.question_id, a.data.outcomes);
  }
  return { sim_start: start.sim_start, forecasts };
}
