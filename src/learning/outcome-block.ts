import { countTokens } from "../agent/token-counter.js";
import { itemOfKey, type OutcomeRecord } from "./outcome-records.js";

/** the cap of the rendered block (cl100k tokens, src/agent/token-counter.ts) */
export const OUTCOME_BLOCK_TOKENS = 5000;
/** earliest outcomes always shown in full (evidence from the start of the run) */
export const EARLIEST_FULL = 3;
/** newest outcomes shown in full */
export const NEWEST_FULL = 8;
/** rows of the per-kind and per-entity tables */
export const TABLE_ROWS = 15;
/** longest full line */
const FULL_LINE_MAX = 500;

const kindOf = (key: string) => {
  const i = key.indexOf(":");
  return i < 0 ? "(none)" : key.slice(0, i);
};
const credit = (c: number | null) => (c === null ? "n/a" : c.toFixed(3));
const mean = (xs: readonly (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? (v.reduce((s, x) => s + x, 0) / v.length).toFixed(3) : "n/a";
};
const byCount = (m: Map<string, number>) =>
  [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k} ${n}`);
const tally = (xs: Iterable<string>) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};
/** "r1–r3, r7, r9–r12": row numbers as ranges */
export function rowRanges(rows: readonly number[]): string {
  const s = [...rows].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(i === j ? `r${s[i]}` : `r${s[i]}–r${s[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

/** a table cell citing rows: every range when few, else the first three and the last two */
function citeRows(rows: readonly number[]): string {
  const parts = rowRanges(rows).split(", ");
  return parts.length <= 6 ? parts.join(", ") : `${parts.slice(0, 3).join(", ")}, …, ${parts.slice(-2).join(", ")}`;
}

const fullLine = (r: OutcomeRecord, row: number) => {
  const o = r.outcome;
  const parts = [`r${row} [${r.src}] ${r.t} ${o.key} ${o.status} credit ${credit(o.credit)}`];
  if (r.action !== null) parts.push(`action: ${r.action}`);
  if (r.note !== "") parts.push(`note: ${r.note}`);
  const s = parts.join(" | ");
  return s.length <= FULL_LINE_MAX ? s : `${s.slice(0, FULL_LINE_MAX - 1)}…`;
};

/** the fold signature of a compact line: same kind, status and credit fold together */
const foldKey = (r: OutcomeRecord) =>
  `${kindOf(r.outcome.key)}\u0000${r.outcome.status}\u0000${credit(r.outcome.credit)}`;

/**
 * Renders the outcome memory (no LLM, deterministic: a pure function of the records and `asOf`)
 * into at most `cap` tokens: counts, a per-kind table and a per-entity table of repeated entities,
 * the earliest outcomes and one per (kind, status) in full (early and diverse evidence), the newest
 * outcomes in full, then the rest compact, newest first, with runs of the same kind, status and
 * credit folded into one line; every line cites its rows (`r<n>`: line n of memory/records.jsonl,
 * whose `src` names the ledger line), and elision lines say what was left out.
 */
export function renderOutcomeBlock(
  records: readonly OutcomeRecord[],
  asOf: string,
  cap = OUTCOME_BLOCK_TOKENS,
): string {
  const n = records.length;
  const head = [
    `Outcome memory as of ${asOf}: ${n} outcome${n === 1 ? "" : "s"} released so far (rows r1–r${n} of memory/records.jsonl; [src] is the ledger line).`,
  ];
  if (n === 0) return `${head[0]}\n`;
  const rowOf = new Map<OutcomeRecord, number>(records.map((r, i) => [r, i + 1]));
  head.push(
    `Counts: ${byCount(tally(records.map((r) => r.outcome.status))).join(", ")}; mean credit ${mean(records.map((r) => r.outcome.credit))}.`,
  );
  // per kind
  const kinds = new Map<string, OutcomeRecord[]>();
  for (const r of records) {
    const k = kindOf(r.outcome.key);
    const list = kinds.get(k) ?? [];
    list.push(r);
    kinds.set(k, list);
  }
  const kindRows = [...kinds.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  head.push("By kind: kind | n | statuses | mean credit");
  for (const [k, rs] of kindRows.slice(0, TABLE_ROWS))
    head.push(
      `${k} | ${rs.length} | ${byCount(tally(rs.map((r) => r.outcome.status))).join(", ")} | ${mean(rs.map((r) => r.outcome.credit))}`,
    );
  if (kindRows.length > TABLE_ROWS) head.push(`(… ${kindRows.length - TABLE_ROWS} more kinds not shown)`);
  // per entity (repeats folded into one row)
  const ents = new Map<string, OutcomeRecord[]>();
  for (const r of records) {
    const e = `${kindOf(r.outcome.key)}:${itemOfKey(r.outcome.key)}`;
    const list = ents.get(e) ?? [];
    list.push(r);
    ents.set(e, list);
  }
  const repeated = [...ents.entries()]
    .filter(([, rs]) => rs.length > 1)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  if (repeated.length > 0) {
    head.push("Entities with repeated outcomes: entity | n | statuses | mean credit | rows");
    for (const [e, rs] of repeated.slice(0, TABLE_ROWS))
      head.push(
        `${e} | ${rs.length} | ${byCount(tally(rs.map((r) => r.outcome.status))).join(", ")} | ${mean(rs.map((r) => r.outcome.credit))} | ${citeRows(rs.map((r) => rowOf.get(r)!))}`,
      );
    if (repeated.length > TABLE_ROWS) head.push(`(… ${repeated.length - TABLE_ROWS} more repeated entities not shown)`);
  }

  // full entries: earliest, one per (kind, status) (newest of each), newest
  const full: OutcomeRecord[] = [];
  const pick = (r: OutcomeRecord | undefined) => {
    if (r !== undefined && !full.includes(r)) full.push(r);
  };
  for (const r of records.slice(0, EARLIEST_FULL)) pick(r);
  const diverse = new Map<string, OutcomeRecord>();
  for (const r of records) diverse.set(`${kindOf(r.outcome.key)}\u0000${r.outcome.status}`, r);
  for (const r of [...diverse.values()].sort((a, b) => rowOf.get(a)! - rowOf.get(b)!)) pick(r);
  for (const r of records.slice(Math.max(0, n - NEWEST_FULL))) pick(r);

  const lineTokens = (s: string) => countTokens(s) + 1;
  // room for the elision line and the section headings
  const reserve = 160;
  let used = head.reduce((s, l) => s + lineTokens(l), 0) + reserve;
  const shownFull: OutcomeRecord[] = [];
  for (const r of full) {
    const t = lineTokens(fullLine(r, rowOf.get(r)!));
    if (used + t > cap) continue;
    used += t;
    shownFull.push(r);
  }
  shownFull.sort((a, b) => rowOf.get(a)! - rowOf.get(b)!);
  // compact: the rest, newest first, folded
  const rest = records.filter((r) => !shownFull.includes(r)).reverse();
  const groups: OutcomeRecord[][] = [];
  for (const r of rest) {
    const g = groups.at(-1);
    if (g && foldKey(g[0]!) === foldKey(r)) g.push(r);
    else groups.push([r]);
  }
  const compact: string[] = [];
  const shownCompact = new Set<OutcomeRecord>();
  for (const g of groups) {
    const o = g[0]!.outcome;
    const line =
      g.length === 1
        ? `r${rowOf.get(g[0]!)} ${g[0]!.t.slice(0, 16)} ${o.key} ${o.status} ${credit(o.credit)}`
        : `${rowRanges(g.map((r) => rowOf.get(r)!))} ×${g.length} ${kindOf(o.key)}:* ${o.status} ${credit(o.credit)} (${g.at(-1)!.t.slice(0, 10)} → ${g[0]!.t.slice(0, 10)})`;
    const t = lineTokens(line);
    if (used + t > cap) break;
    used += t;
    compact.push(line);
    for (const r of g) shownCompact.add(r);
  }
  const left = records.filter((r) => !shownFull.includes(r) && !shownCompact.has(r));
  const out = [
    ...head,
    `In full (earliest, one per kind and status, newest):`,
    ...shownFull.map((r) => fullLine(r, rowOf.get(r)!)),
  ];
  if (compact.length) out.push("Others, newest first (repeats folded):", ...compact);
  if (left.length)
    out.push(
      `(… ${left.length} older outcome${left.length === 1 ? "" : "s"} not shown: ${byCount(tally(left.map((r) => r.outcome.status))).join(", ")}; rows ${clipRanges(rowRanges(left.map((r) => rowOf.get(r)!)))})`,
    );
  let text = `${out.join("\n")}\n`;
  // the per-line sums bound the total closely; cut compact lines if the exact count still exceeds the cap
  while (countTokens(text) > cap && compact.length > 0) {
    compact.pop();
    const body = [
      ...head,
      `In full (earliest, one per kind and status, newest):`,
      ...shownFull.map((r) => fullLine(r, rowOf.get(r)!)),
    ];
    if (compact.length) body.push("Others, newest first (repeats folded):", ...compact);
    body.push(`(… ${n - shownFull.length - compact.length} or more outcomes not shown)`);
    text = `${body.join("\n")}\n`;
  }
  return text;
}

const clipRanges = (s: string) => (s.length <= 200 ? s : `${s.slice(0, 199)}…`);
