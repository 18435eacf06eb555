import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { DAY_MS } from "../common/time.js";
import type {
  LabelRow,
  MarketPriceRow,
  MarketRow,
  QuestionAnswerRow,
  QuestionResolutionRow,
  QuestionRow,
  WorldManifest,
} from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";

export const FORECASTBENCH_BUILDER = "ingest/forecastbench";
export const FORECASTBENCH_BUILDER_VERSION = "1";
/** Truth label kind naming why a question has no answer (read by open-forecast's scorer). */
export const QUESTION_UNSCORABLE_LABEL = "question_unscorable";
/** The raw folder of ForecastBench sets under the raw data dir. */
export const FORECASTBENCH_DIR = "forecastbench";

const NA = "N/A";
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");

/** One question of a ForecastBench question set (`datasets/question_sets/<due>-llm.json`). */
export const FbQuestion = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  question: z.string().min(1),
  resolution_criteria: z.string(),
  background: z.string(),
  market_info_open_datetime: z.string(),
  market_info_close_datetime: z.string(),
  market_info_resolution_criteria: z.string(),
  url: z.string(),
  freeze_datetime: z.string(),
  freeze_datetime_value: z.union([z.string(), z.number()]),
  freeze_datetime_value_explanation: z.string(),
  source_intro: z.string(),
  resolution_dates: z.union([z.literal(NA), z.array(isoDate)]),
});
export type FbQuestion = z.infer<typeof FbQuestion>;

/** One row of a ForecastBench resolution set (`datasets/resolution_sets/<due>_resolution_set.json`). */
export const FbResolution = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  direction: z.unknown().optional(),
  resolution_date: isoDate,
  resolved_to: z.number(),
  resolved: z.boolean(),
});
export type FbResolution = z.infer<typeof FbResolution>;

const QuestionSetFile = z.object({
  forecast_due_date: isoDate,
  question_set: z.string(),
  questions: z.array(z.unknown()),
});
const ResolutionSetFile = z.object({
  forecast_due_date: isoDate,
  question_set: z.string(),
  resolutions: z.array(z.unknown()),
});

export interface FbRejected {
  file: string;
  index: number;
  reason: string;
}

export interface ForecastBenchFiles {
  questionSet: string;
  resolutionSet: string;
}

export interface ForecastBenchRows {
  due: string;
  questions: QuestionRow[];
  resolutions: QuestionResolutionRow[];
  answers: QuestionAnswerRow[];
  labels: LabelRow[];
  markets: MarketRow[];
  prices: MarketPriceRow[];
  rejected: FbRejected[];
  /** world window: the due date through the day after the last resolved row */
  window: { start: number; end: number };
  counts: { questions_in_set: number; resolution_rows: number; scorable: number; unresolved: number; no_row: number };
}

const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

function instant(s: string): number | null {
  if (s === NA) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

function fill(text: string, resolutionDate: string, due: string): string {
  return text.replaceAll("{resolution_date}", resolutionDate).replaceAll("{forecast_due_date}", due);
}

function zodReason(e: z.ZodError): string {
  const i = e.issues[0];
  return `${i?.path.map(String).join(".") || "(row)"}: ${i?.message ?? "invalid"}`;
}

/**
 * Maps a ForecastBench question set and its resolution set to world rows (tasks.md §9): one
 * question per resolution row, id `<due>:<source>:<id>:<date>`, `{resolution_date}` and
 * `{forecast_due_date}` filled, open (and visible) at the due date 00:00Z, answers Yes/No from
 * `resolved_to` 1/0.
 *
 * - Data-source questions (a list of resolution dates): `<date>` and `resolve` are the row's
 *   resolution date (a horizon known in advance).
 * - Market questions (`resolution_dates: "N/A"`): `<date>` and `resolve` are the market's scheduled
 *   close, not the row's resolution date: for a market that resolved early that date is the
 *   outcome's timing and would leak it. The question stops being active when its answer is public.
 * - The answer is determined at the resolution date (truth `resolved_at` = its 00:00Z) and public
 *   the day after (`question_resolution.visible_at` = resolution date + 1 day): the date's data is
 *   complete only at its end.
 * - `resolved: false` rows and set entries without any resolution row become questions without an
 *   answer, with a `question_unscorable` truth label giving the reason (for an entry without rows:
 *   its first resolution date, or the market's close).
 * - Market questions carry their freeze-time value as the crowd forecast: a `market` row with the
 *   question's id and one `market_price` (outcome Yes, visible at the freeze instant).
 * - Rejected (reported, not fatal): rows failing the schema, combination questions (array ids),
 *   resolution rows of no question, duplicate rows, non-binary `resolved_to` on resolved rows.
 */
export function mapForecastBench(
  questionSet: unknown,
  resolutionSet: unknown,
  names: { questionSet: string; resolutionSet: string } = { questionSet: "questions", resolutionSet: "resolutions" },
): ForecastBenchRows {
  const qf = QuestionSetFile.safeParse(questionSet);
  if (!qf.success) throw new Error(`${names.questionSet}: not a ForecastBench question set (${zodReason(qf.error)})`);
  const rf = ResolutionSetFile.safeParse(resolutionSet);
  if (!rf.success)
    throw new Error(`${names.resolutionSet}: not a ForecastBench resolution set (${zodReason(rf.error)})`);
  const due = qf.data.forecast_due_date;
  if (rf.data.forecast_due_date !== due)
    throw new Error(
      `${names.resolutionSet} is for forecast due date ${rf.data.forecast_due_date}, ${names.questionSet} for ${due}`,
    );
  const open = day(due);
  const rejected: FbRejected[] = [];
  const entries: FbQuestion[] = [];
  const seenQ = new Set<string>();
  qf.data.questions.forEach((raw, index) => {
    if (raw && typeof raw === "object" && Array.isArray((raw as { id?: unknown }).id)) {
      rejected.push({ file: names.questionSet, index, reason: "combination question (array id): not supported" });
      return;
    }
    const r = FbQuestion.safeParse(raw);
    if (!r.success) {
      rejected.push({ file: names.questionSet, index, reason: zodReason(r.error) });
      return;
    }
    const key = `${r.data.source}\u0000${r.data.id}`;
    if (seenQ.has(key)) {
      rejected.push({ file: names.questionSet, index, reason: `duplicate question ${r.data.source}:${r.data.id}` });
      return;
    }
    seenQ.add(key);
    entries.push(r.data);
  });
  if (entries.length === 0)
    throw new Error(
      `${names.questionSet}: no usable question (${qf.data.questions.length} in the set, ${rejected.length} rejected${rejected[0] ? `; first: [${rejected[0].index}] ${rejected[0].reason}` : ""})`,
    );
  const rowsOf = new Map<string, FbResolution[]>();
  const seenR = new Set<string>();
  rf.data.resolutions.forEach((raw, index) => {
    if (raw && typeof raw === "object" && Array.isArray((raw as { id?: unknown }).id)) {
      rejected.push({ file: names.resolutionSet, index, reason: "combination question (array id): not supported" });
      return;
    }
    const r = FbResolution.safeParse(raw);
    if (!r.success) {
      rejected.push({ file: names.resolutionSet, index, reason: zodReason(r.error) });
      return;
    }
    const key = `${r.data.source}\u0000${r.data.id}`;
    if (!seenQ.has(key)) {
      rejected.push({
        file: names.resolutionSet,
        index,
        reason: `no question ${r.data.source}:${r.data.id} in the set`,
      });
      return;
    }
    const k2 = `${key}\u0000${r.data.resolution_date}`;
    if (seenR.has(k2)) {
      rejected.push({
        file: names.resolutionSet,
        index,
        reason: `duplicate resolution row for ${r.data.source}:${r.data.id} on ${r.data.resolution_date}`,
      });
      return;
    }
    seenR.add(k2);
    const list = rowsOf.get(key) ?? [];
    list.push(r.data);
    rowsOf.set(key, list);
  });

  const out: ForecastBenchRows = {
    due,
    questions: [],
    resolutions: [],
    answers: [],
    labels: [],
    markets: [],
    prices: [],
    rejected,
    window: { start: open, end: open + DAY_MS },
    counts: { questions_in_set: entries.length, resolution_rows: 0, scorable: 0, unresolved: 0, no_row: 0 },
  };
  const unscorable = (id: string, reason: string) =>
    out.labels.push({ kind: QUESTION_UNSCORABLE_LABEL, key: id, t: null, value: { reason } });

  for (const q of entries) {
    const market = q.resolution_dates === NA;
    const close = instant(q.market_info_close_datetime);
    const freeze = instant(q.freeze_datetime);
    const rows = [...(rowsOf.get(`${q.source}\u0000${q.id}`) ?? [])].sort((a, b) =>
      a.resolution_date < b.resolution_date ? -1 : a.resolution_date > b.resolution_date ? 1 : 0,
    );
    // the questions this entry yields: (date in the id and resolve, its resolution row or null)
    const items: { date: string; resolve: number; row: FbResolution | null }[] = [];
    if (market) {
      if (close === null) {
        rejected.push({
          file: names.questionSet,
          index: entries.indexOf(q),
          reason: `market question ${q.source}:${q.id} has no close date`,
        });
        continue;
      }
      const date = new Date(close).toISOString().slice(0, 10);
      if (rows.length > 1)
        rejected.push({
          file: names.resolutionSet,
          index: -1,
          reason: `market question ${q.source}:${q.id} has ${rows.length} resolution rows: the first is used`,
        });
      items.push({ date, resolve: close, row: rows[0] ?? null });
    } else if (rows.length > 0) {
      for (const row of rows) items.push({ date: row.resolution_date, resolve: day(row.resolution_date), row });
    } else {
      const first = (q.resolution_dates as string[])[0];
      if (first === undefined) {
        rejected.push({
          file: names.questionSet,
          index: entries.indexOf(q),
          reason: `question ${q.source}:${q.id} has no resolution dates`,
        });
        continue;
      }
      items.push({ date: first, resolve: day(first), row: null });
    }
    for (const it of items) {
      const id = `${due}:${q.source}:${q.id}:${it.date}`;
      const value = String(q.freeze_datetime_value);
      const freezeLine =
        q.freeze_datetime !== NA && value !== NA && value !== ""
          ? `\n\nValue at the freeze date (${q.freeze_datetime.slice(0, 10)}): ${value}${q.freeze_datetime_value_explanation ? ` (${q.freeze_datetime_value_explanation})` : ""}`
          : "";
      const title = fill(q.question, it.date, due);
      const background = fill(
        `${q.source_intro}\n\n${q.background}${freezeLine}${q.url && q.url !== NA ? `\n\nSource: ${q.url}` : ""}`,
        it.date,
        due,
      );
      const criteria = fill(
        q.resolution_criteria +
          (q.market_info_resolution_criteria && q.market_info_resolution_criteria !== NA
            ? `\n\n${q.market_info_resolution_criteria}`
            : ""),
        it.date,
        due,
      );
      out.questions.push({
        id,
        title,
        background,
        criteria,
        open,
        resolve: it.resolve,
        answer_type: "binary",
        visible_at: open,
      });
      if (market && freeze !== null) {
        const p = Number(value);
        if (Number.isFinite(p) && p >= 0 && p <= 1) {
          out.markets.push({
            id,
            question: title,
            description: background,
            outcomes: ["Yes", "No"],
            open: instant(q.market_info_open_datetime) ?? freeze,
            scheduled_end: it.resolve,
            visible_at: Math.min(freeze, open),
          });
          out.prices.push({ market: id, outcome: "Yes", t: freeze, p, visible_at: freeze });
        }
      }
      const row = it.row;
      if (row === null) {
        out.counts.no_row++;
        unscorable(id, "no resolution row");
        continue;
      }
      out.counts.resolution_rows++;
      if (!row.resolved) {
        out.counts.unresolved++;
        unscorable(
          id,
          `resolved=false: not resolved by ${row.resolution_date} (resolved_to ${row.resolved_to} is the latest value, not an outcome)`,
        );
        continue;
      }
      if (row.resolved_to !== 0 && row.resolved_to !== 1) {
        unscorable(id, `resolved_to ${row.resolved_to} is not 0 or 1`);
        continue;
      }
      const at = day(row.resolution_date);
      const answer = row.resolved_to === 1 ? "Yes" : "No";
      out.answers.push({ question: id, answer, resolved_at: at });
      out.resolutions.push({ question: id, answer, resolved_at: at, visible_at: at + DAY_MS });
      out.window.end = Math.max(out.window.end, at + DAY_MS);
      out.counts.scorable++;
    }
  }
  return out;
}

export interface ForecastBenchBuild {
  manifest: WorldManifest;
  rows: ForecastBenchRows;
}

/**
 * Builds a world from any ForecastBench question set + resolution set of this format (see
 * `mapForecastBench`), through WorldBuilder (temp dir, atomic rename), recording both files'
 * sha256. No news. The question lint (question-lint.json) is written by the build.
 */
export function buildForecastBenchWorld(
  files: ForecastBenchFiles,
  targetDir: string,
  o: { name?: string } = {},
): ForecastBenchBuild {
  const { rows, questionBytes: qBytes, resolutionBytes: rBytes } = readForecastBench(files);
  const name = o.name ?? `forecastbench-${rows.due}`;
  const builder = WorldBuilder.create(targetDir, {
    name,
    window: rows.window,
    builder: FORECASTBENCH_BUILDER,
    builder_version: FORECASTBENCH_BUILDER_VERSION,
  });
  try {
    importForecastBenchInto(builder, files, { rows, questionBytes: qBytes, resolutionBytes: rBytes });
    return { manifest: builder.finish(), rows };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** A ForecastBench set read and mapped (`readForecastBench`), before any world is written. */
export interface ForecastBenchRead {
  rows: ForecastBenchRows;
  questionBytes: Buffer;
  resolutionBytes: Buffer;
}

/** Reads and maps a question set + resolution set (`mapForecastBench`); throws naming a missing or unparseable file. */
export function readForecastBench(files: ForecastBenchFiles): ForecastBenchRead {
  for (const f of [files.questionSet, files.resolutionSet])
    if (!existsSync(f)) throw new Error(`ForecastBench file not found: ${f}`);
  const questionBytes = readFileSync(files.questionSet);
  const resolutionBytes = readFileSync(files.resolutionSet);
  const parse = (b: Buffer, f: string): unknown => {
    try {
      return JSON.parse(b.toString("utf8"));
    } catch (e) {
      throw new Error(`${f} is not valid JSON: ${(e as Error).message}`);
    }
  };
  const rows = mapForecastBench(parse(questionBytes, files.questionSet), parse(resolutionBytes, files.resolutionSet), {
    questionSet: files.questionSet,
    resolutionSet: files.resolutionSet,
  });
  return { rows, questionBytes, resolutionBytes };
}

/**
 * A ForecastBench set written into `sink`: both files as manifest sources, the question,
 * question_resolution, market and market_price streams, the question_answer and label truth, and
 * the set's window (its due date through the day after its last resolution).
 */
export function importForecastBenchInto(
  sink: WorldSink,
  files: ForecastBenchFiles,
  read: ForecastBenchRead = readForecastBench(files),
): ForecastBenchRows {
  const { rows, questionBytes: qBytes, resolutionBytes: rBytes } = read;
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  const rej = (f: string) => rows.rejected.filter((r) => r.file === f).length;
  sink.addSource({
    path: `${FORECASTBENCH_DIR}/${basename(files.questionSet)}`,
    sha256: sha(qBytes),
    rows: rows.counts.questions_in_set,
    rejected: rej(files.questionSet),
  });
  sink.addSource({
    path: `${FORECASTBENCH_DIR}/${basename(files.resolutionSet)}`,
    sha256: sha(rBytes),
    rows: rows.counts.resolution_rows,
    rejected: rej(files.resolutionSet),
  });
  sink.insert("question", rows.questions);
  sink.insert("question_resolution", rows.resolutions);
  sink.insert("market", rows.markets);
  sink.insert("market_price", rows.prices);
  sink.insertTruth("question_answer", rows.answers);
  sink.insertTruth("label", rows.labels);
  sink.setWindow(rows.window);
  return rows;
}

/** The files of the set due `due` in a raw data dir (`<raw>/forecastbench/<due>-llm.json`, `<due>_resolution_set.json`). */
export function forecastBenchFiles(rawDir: string, due: string): ForecastBenchFiles {
  return {
    questionSet: join(rawDir, FORECASTBENCH_DIR, `${due}-llm.json`),
    resolutionSet: join(rawDir, FORECASTBENCH_DIR, `${due}_resolution_set.json`),
  };
}
