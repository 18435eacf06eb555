import type { Rng } from "../common/random.js";
import type { LabelRow, QuestionAnswerRow, QuestionResolutionRow, QuestionRow } from "../world/types.js";
import type { EarningsRelease } from "./filings.js";
import type { IdMinter } from "./ids.js";
import { MARKET_PARAMS, type MarketPlan } from "./markets.js";
import { DAY, utcDayStart } from "./time.js";

export interface QuestionStreams {
  questions: QuestionRow[];
  answers: QuestionAnswerRow[];
  /** each question's kind (generator-side only: not written to the world) */
  kinds: Map<string, QuestionKind>;
}

/** the three question kinds; each is asked with a polarity drawn by a fair coin (README) */
export const QUESTION_KINDS = ["market_level", "market_resolution", "revenue"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const QUESTION_PARAMS = {
  /** questions opening per window day (Poisson mean) */
  perDay: 4,
  /** kind weights, in QUESTION_KINDS order */
  kindWeights: [0.45, 0.3, 0.25],
  /** a market question resolves this many whole days after it opens (uniform) */
  minDays: 1,
  maxDays: 7,
  /**
   * revenue thresholds: the last revenue reported by the question's open, as a quarterly run rate
   * (a fiscal year's revenue / 4; × 4 for a fiscal-year report), grown by U(lo, hi)
   */
  revenueGrowthLo: -0.01,
  revenueGrowthHi: 0.05,
  /**
   * a release is asked about only when its report is due inside the window by the calendar: the
   * 10-Q/10-K follows the release the same day or up to 5 business days later (by 21:00 ET), so
   * always within 9 days of the release day's 00:00 UTC (never an answer determined after the window)
   */
  reportDueDays: 9,
} as const;

/** one generated question with its kind (not stored in the world: the test of unbiasedness reads it) */
export interface QuestionDraft {
  kind: QuestionKind;
  /** true: asked so that Yes = the event; false: asked for its complement */
  positive: boolean;
  title: string;
  background: string;
  criteria: string;
  open: number;
  resolve: number;
  answer: "Yes" | "No";
  resolved_at: number;
}

function capitalize(x: string): string {
  return x.charAt(0).toUpperCase() + x.slice(1);
}

function dateLabel(t: number): string {
  return new Date(t).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

/** the Yes price standing at t (last point at or before t, visible or not: an answer's) */
function priceAt(plan: MarketPlan, t: number): number | null {
  let p: number | null = null;
  for (let i = 0; i < plan.yes.t.length && (plan.yes.t[i] as number) <= t; i++) p = plan.yes.p[i] as number;
  return p;
}

/** the last Yes price visible at t (a question's text is drawn only from what is public at its open) */
function visiblePriceAt(plan: MarketPlan, t: number): number | null {
  return priceAt(plan, t - MARKET_PARAMS.priceDelayMs);
}

const yesNo = (x: boolean): "Yes" | "No" => (x ? "Yes" : "No");

/** a reported 10-Q/10-K (its filing_gold label) */
interface RevenueFiling {
  ticker: string;
  accession: string;
  form: string;
  fp: string;
  revenue: number;
  period: string;
  accepted_at: number;
}

const periodText = (fp: string, fy: number) => (fp === "FY" ? `fiscal year ${fy}` : `${fp} of fiscal ${fy}`);

function revenueFilings(labels: readonly LabelRow[]): RevenueFiling[] {
  const out: RevenueFiling[] = [];
  for (const l of labels) {
    const v = l.value as {
      ticker: string;
      accession: string;
      form: string;
      revenue?: number;
      fp?: string;
      fy?: number;
      accepted_at: number;
    };
    if (v.form === "8-K" || v.revenue === undefined || v.fp === undefined || v.fy === undefined) continue;
    out.push({
      ticker: v.ticker,
      accession: v.accession,
      form: v.form,
      fp: v.fp,
      revenue: v.revenue,
      period: periodText(v.fp, v.fy),
      accepted_at: v.accepted_at,
    });
  }
  return out;
}

/** the filings a question generator reads: their labels (the reported figures) and the calendar */
export interface QuestionFilings {
  labels: readonly LabelRow[];
  calendar: readonly EarningsRelease[];
}

/** a market question about `plan` opening at `open` and resolving at `at` */
function marketLevel(r: Rng, plan: MarketPlan, open: number, at: number, positive: boolean): QuestionDraft | null {
  const pOpen = visiblePriceAt(plan, open);
  const pAt = priceAt(plan, at);
  if (pOpen === null || pAt === null) return null;
  const thr = Math.min(90, Math.max(10, Math.round((pOpen * 100) / 5) * 5 + 5 * (r.int(3) - 1)));
  const rel = positive ? "at or above" : "below";
  const hit = pAt >= thr / 100;
  return {
    kind: "market_level",
    positive,
    title: `Will the market probability that ${plan.subject.clause} be ${rel} ${thr}% on ${dateLabel(at)} at 00:00 UTC?`,
    background: `A prediction market asks whether ${plan.subject.clause}. News about ${plan.subject.noun} moves it.`,
    criteria: `Resolves Yes if the last traded Yes price of the market at or before ${dateLabel(at)} 00:00 UTC is ${rel} ${thr / 100}.`,
    open,
    resolve: at,
    answer: yesNo(positive ? hit : !hit),
    resolved_at: at,
  };
}

function marketResolution(plan: MarketPlan, open: number, at: number, positive: boolean): QuestionDraft {
  const closed = plan.closed_at !== null && plan.closed_at <= at;
  const title = positive
    ? `Will the prediction market on whether ${plan.subject.clause} by ${dateLabel(plan.scheduled_end)} be resolved by ${dateLabel(at)}?`
    : `Will the prediction market on whether ${plan.subject.clause} by ${dateLabel(plan.scheduled_end)} still be unresolved on ${dateLabel(at)}?`;
  return {
    kind: "market_resolution",
    positive,
    title,
    background: `${capitalize(plan.subject.actor)} has been at the centre of discussion about ${plan.subject.noun}. ${plan.subject.person} is among the people involved; the story is followed closely in ${plan.subject.place}.`,
    criteria: `Resolves Yes if the market ${positive ? "has" : "has not"} closed with a result (either way) at or before ${dateLabel(at)} 00:00 UTC.`,
    open,
    resolve: at,
    answer: yesNo(positive ? closed : !closed),
    resolved_at: closed ? (plan.closed_at as number) : at,
  };
}

/**
 * A revenue question about the scheduled release `e`, asked at `open` from what is public then: the
 * company's last reported revenue (`last`, accepted by `open`) grown by a drawn rate is the
 * threshold, the scheduled release day (00:00 UTC, before its 8-K) the resolve date. `actual` is the
 * report as it happens (the answer, determined when it is accepted); nothing of it shapes the text.
 */
function revenueQuestion(
  r: Rng,
  e: EarningsRelease,
  last: RevenueFiling,
  actual: RevenueFiling,
  open: number,
  positive: boolean,
): QuestionDraft {
  const P = QUESTION_PARAMS;
  const growth = r.uniform(P.revenueGrowthLo, P.revenueGrowthHi);
  const quarterly = last.fp === "FY" ? last.revenue / 4 : last.revenue;
  const estimate = quarterly * (e.fp === "FY" ? 4 : 1);
  const thrB = Math.round((estimate / 1e9) * (1 + growth) * 100) / 100;
  const rel = positive ? "above" : "at or below";
  const hit = actual.revenue > thrB * 1e9;
  const period = periodText(e.fp, e.fy);
  return {
    kind: "revenue",
    positive,
    title: `Will ${e.ticker} report revenue ${rel} $${thrB.toFixed(2)} billion for ${period}?`,
    background: `${e.ticker} is scheduled to release its results for ${period} on ${dateLabel(e.day)} and to file its ${e.form} with the SEC. It last reported revenue of $${(last.revenue / 1e9).toFixed(2)} billion for ${last.period}.`,
    criteria: `Resolves Yes if the revenue reported in ${e.ticker}'s ${e.form} for ${period} is ${rel} $${thrB.toFixed(2)} billion.`,
    open,
    resolve: e.day,
    answer: yesNo(positive ? hit : !hit),
    resolved_at: actual.accepted_at,
  };
}

/**
 * Question drafts (with their kinds), drawn per window day from that day's own stream: a Poisson
 * number of questions open at the day's 00:00 UTC; each draws its kind, then a subject among the
 * markets or filings still undecided at the open, a resolve date and a fair-coin polarity (the
 * question asks for the event or for its complement), so every kind, text feature and id is
 * independent of the answer (P(Yes) = 1/2 whatever the world does). A question's text, threshold
 * and dates are drawn only from what is public at its open (prices visible then, resolutions out
 * by then, reported filings, the filing calendar), so two worlds that agree up to T ask the same
 * questions up to T (prefix stability by construction). Cheap: needs only the market plans and the
 * filings' labels and calendar, not a built world.
 */
export function questionDrafts(
  rng: Rng,
  plans: readonly MarketPlan[],
  filingSet: QuestionFilings,
  start: number,
  end: number,
): QuestionDraft[] {
  const P = QUESTION_PARAMS;
  const filings = revenueFilings(filingSet.labels).sort((a, b) => a.accepted_at - b.accepted_at);
  const actualOf = new Map(filings.map((f) => [f.accession, f]));
  /** the ticker's latest report accepted by t (public at t), or null */
  const lastReported = (ticker: string, t: number): RevenueFiling | null => {
    let out: RevenueFiling | null = null;
    for (const f of filings) if (f.ticker === ticker && f.accepted_at <= t) out = f;
    return out;
  };
  const out: QuestionDraft[] = [];
  const firstDay = utcDayStart(start) + (start % DAY === 0 ? 0 : DAY);
  for (let open = firstDay; open < end; open += DAY) {
    const r = rng.split(`day-${new Date(open).toISOString().slice(0, 10)}`);
    const n = r.poisson(P.perDay);
    for (let k = 0; k < n; k++) {
      const kind = QUESTION_KINDS[r.weighted(P.kindWeights)] as QuestionKind;
      const positive = r.chance(0.5);
      const days = P.minDays + r.int(P.maxDays - P.minDays + 1);
      const at = Math.min(open + days * DAY, utcDayStart(end));
      let d: QuestionDraft | null = null;
      switch (kind) {
        case "market_level": {
          const live = plans.filter((p) => p.open <= open && (p.closed_at === null || p.closed_at > open));
          if (live.length > 0 && at > open) d = marketLevel(r, r.pick(live), open, at, positive);
          break;
        }
        case "market_resolution": {
          const live = plans.filter(
            (p) => p.role === "long_dated" && p.open <= open && (p.closed_at === null || p.closed_at > open),
          );
          if (live.length > 0 && at > open) d = marketResolution(r.pick(live), open, at, positive);
          break;
        }
        case "revenue": {
          // releases scheduled after the open whose report is due inside the window, of companies
          // with a report out by then
          const due = filingSet.calendar.filter(
            (e) => e.day > open && e.day + P.reportDueDays * DAY <= end && lastReported(e.ticker, open) !== null,
          );
          if (due.length > 0) {
            const e = r.pick(due);
            const actual = actualOf.get(e.accession);
            const last = lastReported(e.ticker, open);
            if (actual !== undefined && last !== null) d = revenueQuestion(r, e, last, actual, open, positive);
          }
          break;
        }
        default: {
          const never: never = kind;
          throw new Error(`unknown question kind ${String(never)}`);
        }
      }
      if (d !== null) out.push(d);
    }
  }
  return out;
}

/**
 * Binary forecasting questions about the planted world (questionDrafts), with opaque ids
 * `q-<10 hex>` of their own text and open time; `visible_at = open`; answers in `question_answer`.
 */
export function generateQuestions(
  rng: Rng,
  plans: readonly MarketPlan[],
  filings: QuestionFilings,
  start: number,
  end: number,
  ids: IdMinter,
): QuestionStreams {
  const questions: QuestionRow[] = [];
  const answers: QuestionAnswerRow[] = [];
  const kinds = new Map<string, QuestionKind>();
  for (const d of questionDrafts(rng, plans, filings, start, end)) {
    if (d.open >= end || d.open >= d.resolved_at) continue;
    const id = `q-${ids.hex("question", [d.title, d.open], 10)}`;
    if (kinds.has(id)) continue; // the same question drawn twice on one day is asked once
    kinds.set(id, d.kind);
    questions.push({
      id,
      title: d.title,
      background: d.background,
      criteria: d.criteria,
      open: d.open,
      resolve: d.resolve,
      answer_type: "binary",
      visible_at: d.open,
    });
    answers.push({ question: id, answer: d.answer, resolved_at: d.resolved_at });
  }
  questions.sort((a, b) => a.open - b.open || (a.id < b.id ? -1 : 1));
  return { questions, answers, kinds };
}

/**
 * The public side of each answer (`question_resolution` rows): a question's answer becomes a world
 * fact at the first 00:00 UTC at or after both its resolve time and the time the answer was
 * determined, so it is never public while the question is still open for forecasting.
 */
export function questionResolutions(
  questions: readonly QuestionRow[],
  answers: readonly QuestionAnswerRow[],
): QuestionResolutionRow[] {
  const resolveOf = new Map(questions.map((q) => [q.id, q.resolve]));
  return answers.map((a) => {
    const t = Math.max(a.resolved_at, resolveOf.get(a.question) ?? a.resolved_at);
    const day = utcDayStart(t);
    return {
      question: a.question,
      answer: a.answer,
      resolved_at: a.resolved_at,
      visible_at: day === t ? t : day + DAY,
    };
  });
}
