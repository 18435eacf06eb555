import { DAY_MS } from "../common/time.js";
import { count, episodeTime, isoTime, metric, usd } from "./format.js";
import { type Html, html } from "./html.js";
import type { TimelineBin, TimelineData } from "./timeline.js";

/** Where a mark links to in the ledger viewer. */
export type LedgerHref = (p: { at?: number; cursor?: number; type?: string }) => string;

const PALETTE = ["#1f6feb", "#cf222e", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7ea4", "#57606a"];

/** Stable colors for the values of a histogram (sorted by name). */
export function colorsFor(keys: readonly string[]): Map<string, string> {
  return new Map([...keys].sort().map((k, i) => [k, PALETTE[i % PALETTE.length]!]));
}

/** Outcome statuses that mean the agent earned the outcome (green), and those that mean it did not (red/orange). */
const GOOD_STATUSES = new Set(["ok", "hit", "correct", "scored", "resolved", "priced", "covered", "done", "on_time"]);
const BAD_STATUSES = new Set([
  "miss",
  "missed",
  "wrong",
  "fp",
  "false_positive",
  "premature",
  "late",
  "expired",
  "failed",
]);
const GOOD = "#1a7f37";
const BAD = ["#cf222e", "#bc4c00", "#a40e26", "#fb8f44"];
/** colors for neither kind (no credit, open, abstained, unknown statuses): never green, never red */
const NEUTRAL = ["#57606a", "#1f6feb", "#8250df", "#0a7ea4", "#9a6700", "#bf3989"];

/**
 * Outcome status colors that read right: earned statuses green, missed or wrong ones red or orange,
 * anything else (not scorable, open, a task's own status) a neutral color, so a miss is never green.
 */
export function outcomeColors(statuses: readonly string[]): Map<string, string> {
  let bad = 0;
  let neutral = 0;
  return new Map(
    [...statuses]
      .sort()
      .map((k) => [
        k,
        GOOD_STATUSES.has(k)
          ? GOOD
          : BAD_STATUSES.has(k)
            ? BAD[bad++ % BAD.length]!
            : NEUTRAL[neutral++ % NEUTRAL.length]!,
      ]),
  );
}

const W = 1100;
const L = 112;
const R = 78;
const LANES = {
  wakes: { y: 30, h: 36 },
  commitments: { y: 78, h: 28 },
  outcomes: { y: 118, h: 60 },
  spend: { y: 196, h: 120 },
};
const AXIS_Y = 326;
const H = 350;

const f1 = (v: number) => Math.round(v * 10) / 10;
/** Above this many wakes or commitments, single marks would merge into a band: their lanes show bins. */
export const MAX_MARKS = 450;

/**
 * The run's timeline as inline SVG over simulated time: wakes, commitments, outcomes (height =
 * credit, color = status) and cumulative spend (total, and LLM dashed). Individual marks while
 * the timeline keeps them, else per-bin bars (downsampled). Every mark links into the ledger.
 */
export function timelineSvg(tl: TimelineData, ledgerHref: LedgerHref): Html {
  const t0 = tl.sim_start ?? tl.first_t ?? tl.origin;
  const lastBinEnd = tl.bins.length > 0 ? tl.bins.at(-1)!.t + tl.bin_ms : t0 + tl.bin_ms;
  const t1 = Math.max(tl.sim_end ?? lastBinEnd, tl.last_t ?? t0, t0 + 1);
  const x = (t: number) => f1(L + ((Math.min(Math.max(t, t0), t1) - t0) / (t1 - t0)) * (W - L - R));
  const binW = Math.max(1, f1(((W - L - R) * tl.bin_ms) / (t1 - t0)));
  const reasonColor = colorsFor(Object.keys(tl.wakes.by_reason));
  const statusColor = outcomeColors(Object.keys(tl.outcomes.by_status));

  // day grid and labels
  const days = (t1 - t0) / DAY_MS;
  const step = Math.max(1, Math.ceil(days / 14));
  const grid: Html[] = [];
  for (let d = 0; d <= Math.floor(days); d++) {
    const gx = x(t0 + d * DAY_MS);
    if (days <= 120 || d % step === 0)
      grid.push(html`<line x1="${gx}" y1="${LANES.wakes.y - 6}" x2="${gx}" y2="${AXIS_Y}" stroke="#eef0f2"/>`);
    if (d % step === 0 && d < days)
      grid.push(
        html`<text x="${gx + 2}" y="${AXIS_Y + 14}">d${d + 1}</text><text x="${gx + 2}" y="${AXIS_Y + 24}" class="muted">${isoTime(t0 + d * DAY_MS).slice(5, 10)}</text>`,
      );
  }

  const active = tl.bins.filter((b) => b.t <= (tl.last_t ?? t0));
  const bars = (lane: { y: number; h: number }, value: (b: TimelineBin) => number, type: string, color: string) => {
    const max = Math.max(1, ...tl.bins.map(value));
    return tl.bins
      .filter((b) => value(b) > 0)
      .map((b) => {
        const v = value(b);
        const bh = Math.max(1, f1((v / max) * lane.h));
        return html`<a href="${ledgerHref({ at: b.t, type })}"><rect x="${x(b.t)}" y="${lane.y + lane.h - bh}" width="${binW}" height="${bh}" fill="${color}"><title>${count(v)} ${type} in ${isoTime(b.t)} + ${tl.bin_ms / 60000} min</title></rect></a>`;
      });
  };

  const wakes =
    tl.wakes.items === null || tl.wakes.items.length > MAX_MARKS
      ? bars(LANES.wakes, (b) => b.wakes, "wake", "#1f6feb")
      : tl.wakes.items.map(
          (w) =>
            html`<a href="${ledgerHref({ cursor: w.seq })}"><line x1="${x(w.t)}" y1="${LANES.wakes.y}" x2="${x(w.t)}" y2="${LANES.wakes.y + LANES.wakes.h}" stroke="${reasonColor.get(w.reason) ?? "#888"}" stroke-width="1.5"><title>wake (${w.reason}) of ${w.actor} at ${isoTime(w.t)} · line ${w.seq}</title></line></a>`,
        );

  const cy = LANES.commitments.y + LANES.commitments.h / 2;
  const commitments =
    tl.commitments.items === null || tl.commitments.items.length > MAX_MARKS
      ? bars(LANES.commitments, (b) => b.commitments, "commitment", "#8250df")
      : tl.commitments.items.map((c) => {
          const cx = x(c.t);
          return html`<a href="${ledgerHref({ cursor: c.seq })}"><path d="M${cx} ${cy - 6}L${cx + 5} ${cy}L${cx} ${cy + 6}L${cx - 5} ${cy}Z" fill="#8250df" fill-opacity="0.75"><title>commitment ${c.tool} by ${c.actor} at ${isoTime(c.t)} · line ${c.seq}</title></path></a>`;
        });

  const ol = LANES.outcomes;
  let outcomes: Html[];
  if (tl.outcomes.items === null) {
    const max = Math.max(1, ...tl.bins.map((b) => b.outcomes));
    outcomes = tl.bins
      .filter((b) => b.outcomes > 0)
      .map((b) => {
        const bh = Math.max(1, f1((b.outcomes / max) * ol.h));
        const mean = b.credit / b.outcomes;
        return html`<a href="${ledgerHref({ at: b.t, type: "outcome" })}"><rect x="${x(b.t)}" y="${ol.y + ol.h - bh}" width="${binW}" height="${bh}" fill="#1a7f37" fill-opacity="${f1(0.25 + 0.75 * Math.min(1, Math.max(0, mean)))}"><title>${count(b.outcomes)} outcomes from ${isoTime(b.t)}, mean credit ${metric(mean)}</title></rect></a>`;
      });
  } else {
    const top = Math.max(1, ...tl.outcomes.items.map((o) => Math.abs(o.credit ?? 0)));
    outcomes = tl.outcomes.items.map((o) => {
      const ox = x(o.t);
      const color = statusColor.get(o.status) ?? "#888";
      const oy = o.credit === null ? ol.y + ol.h / 2 : f1(ol.y + ol.h - (Math.max(0, o.credit) / top) * (ol.h - 8) - 4);
      return html`<a href="${ledgerHref({ cursor: o.seq })}"><circle cx="${ox}" cy="${oy}" r="3.5" fill="${o.credit === null ? "none" : color}" stroke="${color}"><title>outcome ${o.key}: ${o.status}, credit ${o.credit === null ? "none" : metric(o.credit)} (settled ${isoTime(o.t)}) · line ${o.seq}</title></circle></a>`;
    });
  }

  const sl = LANES.spend;
  const maxSpend = Math.max(tl.spend.total_usd, 1e-9);
  const sy = (v: number) => f1(sl.y + sl.h - (v / maxSpend) * sl.h);
  const line = (pick: (b: TimelineBin) => number) =>
    [
      `${x(t0)},${sy(0)}`,
      ...active.map((b) => `${x(Math.min(b.t + tl.bin_ms, tl.last_t ?? b.t))},${sy(pick(b))}`),
    ].join(" ");
  const now =
    tl.last_t !== null && tl.sim_end !== null && tl.last_t < tl.sim_end
      ? html`<line x1="${x(tl.last_t)}" y1="${LANES.wakes.y - 6}" x2="${x(tl.last_t)}" y2="${AXIS_Y}" stroke="#cf222e" stroke-dasharray="3 3"><title>ledger so far: ${isoTime(tl.last_t)}</title></line>`
      : null;
  const lanes = (
    [
      ["wakes", LANES.wakes, `${count(tl.wakes.count)} wakes`],
      ["commitments", LANES.commitments, `${count(tl.commitments.count)} commits`],
      ["outcomes", LANES.outcomes, `${count(tl.outcomes.count)} outcomes`],
      ["spend", LANES.spend, `spend ${usd(tl.spend.total_usd)}`],
    ] as const
  ).map(
    ([name, lane, label]) =>
      html`<text class="lane" x="6" y="${lane.y + 12}">${name}</text><text x="6" y="${lane.y + 26}" class="muted">${label}</text><line x1="${L}" y1="${lane.y + lane.h}" x2="${W - R}" y2="${lane.y + lane.h}" stroke="#d0d4d8"/>`,
  );

  return html`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="run timeline" viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W}px;border:1px solid #dde1e5;border-radius:6px;background:#fff">
<title>timeline ${isoTime(t0)} – ${isoTime(t1)}${binned(tl) ? ` (some lanes in ${tl.bin_ms / 60000}-minute bins)` : ""}</title>
${grid}${lanes}
<g class="wakes">${wakes}</g>
<g class="commitments">${commitments}</g>
<g class="outcomes">${outcomes}</g>
<g class="spend"><polyline points="${line((b) => b.spend_usd)}" fill="none" stroke="#1a7f37" stroke-width="1.8"><title>cumulative spend</title></polyline>
<polyline points="${line((b) => b.llm_usd)}" fill="none" stroke="#0a7ea4" stroke-width="1.2" stroke-dasharray="4 3"><title>cumulative LLM spend</title></polyline>
<text x="${W - R + 4}" y="${sl.y + 8}">${usd(maxSpend)}</text><text x="${W - R + 4}" y="${sl.y + sl.h}">$0</text></g>
${now}
<text x="${W - R + 4}" y="${ol.y + 8}">credit</text>
</svg>`;
}

/** True when some lane is drawn from bins instead of single marks. */
export function binned(tl: TimelineData): boolean {
  return (
    tl.wakes.items === null ||
    tl.wakes.items.length > MAX_MARKS ||
    tl.commitments.items === null ||
    tl.commitments.items.length > MAX_MARKS ||
    tl.outcomes.items === null
  );
}

/** When and how to read the timeline: a legend for the colors in use. */
export function timelineLegend(tl: TimelineData): Html {
  const reasonColor = colorsFor(Object.keys(tl.wakes.by_reason));
  const statusColor = outcomeColors(Object.keys(tl.outcomes.by_status));
  const sw = (c: string) =>
    html`<span style="display:inline-block;width:10px;height:10px;background:${c};border-radius:2px"></span>`;
  return html`<p class="muted">
wake reasons: ${[...reasonColor].map(([k, c]) => html`${sw(c)} ${k} (${count(tl.wakes.by_reason[k])}) `)}
${tl.wakes.items === null || tl.wakes.items.length > MAX_MARKS ? "— shown as per-bin counts" : ""}<br>
${tl.commitments.items === null || tl.commitments.items.length > MAX_MARKS ? html`commitments (${count(tl.commitments.count)}) shown as per-bin counts<br>` : ""}
outcome status: ${[...statusColor].map(([k, c]) => html`${sw(c)} ${k} (${count(tl.outcomes.by_status[k])}) `)}
${tl.outcomes.items === null ? "— shown as per-bin counts (opacity = mean credit)" : "— height = credit, hollow = no credit"}<br>
spend: ${sw("#1a7f37")} total ${sw("#0a7ea4")} LLM (dashed) · bins of ${tl.bin_ms / 60000} simulated minutes · time axis in episode days (UTC)
${tl.last_t !== null ? html` · ledger reaches ${isoTime(tl.last_t)} (${episodeTime(tl.last_t, tl.sim_start)})` : ""}</p>`;
}
