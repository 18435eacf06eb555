import { STREAM_KINDS, type StreamKind } from "../world/row-schemas.js";
import type { SynthWorld } from "./generate.js";

/**
 * Window prefix stability: whether the world generated for [start, end') restricted to
 * [start, end) (`restrictToWindow`, for end < end') equals a fresh build of [start, end) — the
 * condition under which a cached world whose window contains the requested one may be reused
 * (issue 12 §4). This is not the "different futures" prefix stability of the README (two worlds
 * of one window that agree up to a cut): a window's end also shapes what the generator draws
 * (markets are scheduled against it, the filing cycle and the questions fit inside it, candles of
 * one venue share one noise stream across symbols), so most streams change with it.
 * Pinned by test/synth/window-prefix.property.test.ts over several (seed, window ⊂ window') pairs.
 */

/** What a synthetic world is made of: its stream kinds and its truth tables. */
export type SynthKind = StreamKind | `truth.${keyof SynthWorld["truth"]}`;

export const SYNTH_TRUTH_KINDS = [
  "breakpoint",
  "attribution",
  "question_answer",
  "label",
] as const satisfies readonly (keyof SynthWorld["truth"])[];

export const SYNTH_KINDS: readonly SynthKind[] = [
  ...STREAM_KINDS,
  ...SYNTH_TRUTH_KINDS.map((k): SynthKind => `truth.${k}`),
];

export type PrefixStability = { stable: true } | { stable: false; why: string };

/**
 * The generator's declaration, kind by kind (GENERATOR_VERSION v7; unchanged since v5). Declaring a kind stable that
 * is not fails the property test; so does declaring one unstable that was equal in every pair
 * (the declaration must stay exact). A cached world is reused only when every kind is stable.
 */
export const WINDOW_PREFIX_STABILITY: Record<SynthKind, PrefixStability> = {
  reddit_post: { stable: true },
  reddit_comment: { stable: true },
  reddit_reveal: { stable: true },
  company: { stable: true },
  event: { stable: true },
  market: {
    stable: false,
    why: "markets are scheduled against the window end (deadline dates in the question text, ids hashing them)",
  },
  market_price: { stable: false, why: "price paths of markets whose schedule depends on the window end" },
  market_resolution: { stable: false, why: "in-window expiries and event times depend on the window end" },
  news: { stable: false, why: "catalysts, resolution news and earnings press follow the markets and filings" },
  candle: {
    stable: false,
    why: "a venue's noise stream is drawn symbol after symbol over the whole span, so every symbol but the first depends on its length",
  },
  filing: { stable: false, why: "each company's earnings cycle is placed inside the window" },
  xbrl_fact: { stable: false, why: "the facts of filings placed inside the window" },
  question: {
    stable: false,
    why: "question kinds and subjects are drawn among events that resolve inside the window (revenue: report due by the window end)",
  },
  question_resolution: { stable: false, why: "answers of window-dependent questions" },
  broker_event: {
    stable: false,
    why: "the PM book trades on the candles; the holdings blotter is placed by quarters of the window",
  },
  "truth.breakpoint": { stable: false, why: "moves of markets scheduled against the window end" },
  "truth.attribution": { stable: false, why: "catalyst articles of those moves" },
  "truth.question_answer": { stable: false, why: "answers of window-dependent questions" },
  "truth.label": { stable: false, why: "t_det and filing gold of window-dependent markets and filings" },
};

/** Kinds declared not window-prefix-stable, with why (empty: a covering cached world may be reused). */
export function windowPrefixUnstable(
  decl: Record<SynthKind, PrefixStability> = WINDOW_PREFIX_STABILITY,
): { kind: SynthKind; why: string }[] {
  const out: { kind: SynthKind; why: string }[] = [];
  for (const kind of SYNTH_KINDS) {
    const s = decl[kind];
    if (!s.stable) out.push({ kind, why: s.why });
  }
  return out;
}

const before = (end: number) => (r: { visible_at: number }) => r.visible_at < end;

/**
 * The rows a fresh build of [start, end) would hold, taken from a world generated for the same
 * seed and start and a later end (its rows are only filtered, never changed): reddit posts created
 * before `end` with their whole comment trees and reveals (the generator draws a post's cascade
 * when it creates the post, so comments and reveals may lie after the end), companies whole,
 * candles opening before `end` (the generator emits the last one whole), every other row visible
 * before `end`; truth: breakpoints starting before `end` and their attributions, answers of the
 * kept questions, labels dated before `end` (undated ones kept). Equal to the fresh build exactly
 * for the kinds where the generator is window-prefix-stable.
 */
export function restrictToWindow(w: SynthWorld, end: number): SynthWorld {
  const posts = w.reddit_post.filter((p) => p.created_utc < end);
  const postIds = new Set(posts.map((p) => p.id));
  const questions = w.question.filter(before(end));
  const questionIds = new Set(questions.map((q) => q.id));
  const breakpoints = w.truth.breakpoint.filter((b) => b.t_start < end);
  const breakpointIds = new Set(breakpoints.map((b) => b.id));
  return {
    news: w.news.filter(before(end)),
    market: w.market.filter(before(end)),
    market_price: w.market_price.filter(before(end)),
    market_resolution: w.market_resolution.filter(before(end)),
    reddit_post: posts,
    reddit_comment: w.reddit_comment.filter((c) => postIds.has(c.root)),
    reddit_reveal: w.reddit_reveal.filter((r) => postIds.has(r.post)),
    candle: w.candle.filter((c) => c.open_time < end),
    filing: w.filing.filter(before(end)),
    xbrl_fact: w.xbrl_fact.filter(before(end)),
    company: w.company,
    question: questions,
    question_resolution: w.question_resolution.filter((r) => questionIds.has(r.question)),
    broker_event: w.broker_event.filter(before(end)),
    event: w.event.filter(before(end)),
    truth: {
      breakpoint: breakpoints,
      attribution: w.truth.attribution.filter((a) => breakpointIds.has(a.breakpoint)),
      question_answer: w.truth.question_answer.filter((a) => questionIds.has(a.question)),
      label: w.truth.label.filter((l) => l.t === null || l.t < end),
    },
  };
}

/** The rows of one kind of a synthetic world. */
export function kindRows(w: SynthWorld, kind: SynthKind): readonly unknown[] {
  switch (kind) {
    case "truth.breakpoint":
      return w.truth.breakpoint;
    case "truth.attribution":
      return w.truth.attribution;
    case "truth.question_answer":
      return w.truth.question_answer;
    case "truth.label":
      return w.truth.label;
    default:
      return w[kind];
  }
}
