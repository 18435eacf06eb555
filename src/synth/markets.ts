import type { Rng } from "../common/random.js";
import type {
  AttributionRow,
  BreakpointRow,
  LabelRow,
  MarketPriceRow,
  MarketResolutionRow,
  MarketRow,
} from "../world/types.js";
import type { FutureStream } from "./future.js";
import type { IdMinter } from "./ids.js";
import { BREAKOUT_SUBJECTS, LONG_DATED_SUBJECTS, type MarketSubject } from "./market-subjects.js";
import { composeBody, type NewsDraft, pickDomain } from "./news-draft.js";
import { DAY, HOUR, MINUTE, pad, utcDayStart } from "./time.js";
import { fill } from "./vocab.js";

/**
 * Market ids: `brk-<8 hex>` are the 8 breakout-news markets, `ld-<8 hex>` the 20 long-dated ones; the
 * hex is a keyed hash of the market's question, open and scheduled end (ids.ts), so neither the id
 * nor the subject (shuffled per seed) tells a market's role or kind.
 */
export const BREAKOUT_MARKET_PREFIX = "brk-";
export const LONG_DATED_MARKET_PREFIX = "ld-";

export const MARKET_PARAMS = {
  /** price grid; a row is emitted only when the rounded price changes (forward-filled) */
  stepMs: 10 * MINUTE,
  priceDecimals: 3,
  /** a price at t becomes visible at t + this */
  priceDelayMs: 10 * MINUTE,
  /** per-step probability of a change and its logit sd (breakout / long-dated) */
  breakoutChangeProb: 0.12,
  breakoutStepSd: 0.05,
  longDatedChangeProb: 0.06,
  longDatedStepSd: 0.05,
  /** breakpoints: mean gap after the 36 h minimum, logit jump size range, duration range */
  breakpointMinGapMs: 36 * HOUR,
  breakpointMeanExtraGapMs: 4 * DAY,
  jumpLogitMin: 0.8,
  jumpLogitMax: 1.6,
  /** share of breakpoints explained by catalysts with confidence ≥ 0.6 (the rest: moves with no news) */
  explainedShare: 0.75,
  /** catalysts are published this long before t_start */
  catalystLeadMinMs: 0.5 * HOUR,
  catalystLeadMaxMs: 12 * HOUR,
  /** neutral topic chatter per market per day */
  chatterPerDay: 0.6,
  /**
   * Distractors (README "Distractors"): catalyst-like articles (the catalysts' own templates and
   * bodies) that no move follows, per breakout market per day (a Poisson stream)
   */
  decoysPerDay: 0.4,
  /** share of decoys that also name a second breakout market (a multi-market headline) */
  decoyMultiShare: 0.3,
  /** share of first catalysts whose headline also names a second breakout market */
  catalystMultiShare: 0.3,
  /**
   * share of breakpoints with a catalyst published after the move started (in [t_start, t_end +
   * 1 h), attributed with confidence 0.6–0.9 but never gold: the truth rule wants it before t_start)
   */
  lateCatalystShare: 0.5,
} as const;

export type LongDatedKind = "event" | "deadline" | "false_band" | "open";

export interface MarketPlan {
  id: string;
  subject: MarketSubject;
  role: "breakout" | "long_dated";
  kind: LongDatedKind | "breakout";
  open: number;
  scheduled_end: number;
  /** set when the market closes (maybe after the window) */
  closed_at: number | null;
  result: "Yes" | "No" | null;
  /** Yes-price points (t, p) as emitted */
  yes: { t: number[]; p: number[] };
}

export interface MarketStreams {
  markets: MarketRow[];
  prices: MarketPriceRow[];
  resolutions: MarketResolutionRow[];
  news: NewsDraft[];
  breakpoints: BreakpointRow[];
  /** `news_id` holds a NewsDraft key until generate.ts assigns ids */
  attributions: AttributionRow[];
  labels: LabelRow[];
  plans: MarketPlan[];
}

const UP = [
  "{person} signals support for {noun}",
  "{actor} moves closer to {noun}, officials say",
  "Momentum builds for {noun} after key talks in {place}",
  "Leaked memo suggests {actor} is preparing {noun}",
  "Breakthrough reported in negotiations over {noun}",
  "Major obstacle to {noun} removed, sources say",
];
const DOWN = [
  "{person} rules out {noun} for now",
  "Talks on {noun} stall in {place}",
  "{actor} delays decision on {noun}",
  "Setback for {noun} as key ally withdraws support",
  "New objections cast doubt on {noun}",
  "Officials in {place} signal {noun} is off the table this quarter",
];
const UP_MIDDLE = [
  "People familiar with the matter said the remaining obstacles had largely been cleared.",
  "The shift surprised observers who had expected a longer stalemate.",
  "{person} told reporters that an announcement could follow soon.",
];
const DOWN_MIDDLE = [
  "The development is a blow to supporters who had expected progress this month.",
  "{person} said conditions were not yet in place.",
  "Several participants described the mood as pessimistic.",
];
/** catalyst headlines that also name a second market's event ({noun2}); the cue is about {noun} */
const UP_MULTI = [
  "{person} signals support for {noun}; {noun2} also on the agenda",
  "Momentum builds for {noun} while {noun2} stays in focus",
  "Breakthrough reported on {noun} as talks on {noun2} continue",
  "{actor} moves closer to {noun}; observers also eye {noun2}",
];
const DOWN_MULTI = [
  "{person} rules out {noun}; {noun2} still under discussion",
  "Talks on {noun} stall in {place} as attention turns to {noun2}",
  "Setback for {noun} as key ally withdraws support; {noun2} unaffected",
  "{actor} delays decision on {noun} amid debate over {noun2}",
];
const NEUTRAL = [
  "What to watch as {actor} weighs {noun}",
  "{person} to speak in {place} next week",
  "Explainer: the long road to {noun}",
  "Opinion: {noun} is not the whole story in {place}",
  "{actor} publishes routine update; no decision on {noun}",
  "Residents of {place} divided over {noun}",
];
const NEUTRAL_MIDDLE = [
  "No decision has been announced and officials gave no timetable.",
  "The debate has continued for months with little visible change.",
  "Observers said the next steps remain unclear.",
];
const REACTION = ["Prediction markets swing on {noun} news", "Traders reprice odds of {noun}"];
const LEAK_YES = ["Sources: {actor} set to confirm {noun} within days", "{actor} said to be finalising {noun}"];
const LEAK_NO = ["Sources: {actor} poised to abandon {noun}", "{noun} appears unlikely as support collapses"];
const OFFICIAL_YES = ["{actor} confirms {noun}", "It's official: {noun} goes ahead"];
const OFFICIAL_NO = ["{actor} formally abandons {noun}", "{noun} will not happen, {person} confirms"];
const DEADLINE_FADE = ["Hopes fade for {noun} as deadline nears"];
const DEADLINE_PASS = ["Deadline passes without {noun}"];
const SPIKE_RUMOR = ["Unconfirmed report claims {noun} is done"];
const SPIKE_DENIAL = ["{actor} denies report on {noun}; talks continue"];

function slots(subj: MarketSubject, other: MarketSubject | null = null): Record<string, string> {
  const sl: Record<string, string> = { noun: subj.noun, actor: subj.actor, person: subj.person, place: subj.place };
  if (other !== null) sl.noun2 = other.noun;
  return sl;
}

function capitalize(x: string): string {
  return x.charAt(0).toUpperCase() + x.slice(1);
}

function article(
  rng: Rng,
  key: string,
  t: number,
  subj: MarketSubject,
  titles: readonly string[],
  middles: readonly string[],
  other: MarketSubject | null = null,
): NewsDraft {
  const sl = slots(subj, other);
  const title = capitalize(fill(rng.pick(titles), sl));
  const lead = `${title}, according to reports from ${subj.place}.`;
  const middle = [fill(rng.pick(middles), sl)];
  if (rng.chance(0.5)) middle.push(`${capitalize(subj.actor)} is at the centre of the discussion.`);
  return {
    key,
    published_at: Math.floor(t / 1000) * 1000,
    domain: pickDomain(rng),
    title,
    text: composeBody(rng, lead, middle),
  };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** round and clamp a probability to the emitted grid */
function roundP(p: number): number {
  const f = 10 ** MARKET_PARAMS.priceDecimals;
  return Math.min(0.999, Math.max(0.001, Math.round(p * f) / f));
}

/**
 * Step a logit path on the grid; `step(k, t, x)` returns the next logit. Emits a Yes point only
 * when the rounded price changes.
 */
function runPath(
  t0: number,
  t1: number,
  x0: number,
  step: (k: number, t: number, x: number) => number,
): MarketPlan["yes"] {
  const ts: number[] = [];
  const ps: number[] = [];
  let x = x0;
  let last = -1;
  const n = Math.ceil((t1 - t0) / MARKET_PARAMS.stepMs);
  for (let k = 0; k < n; k++) {
    const t = t0 + k * MARKET_PARAMS.stepMs;
    x = step(k, t, x);
    const p = roundP(sigmoid(x));
    if (p !== last) {
      ts.push(t);
      ps.push(p);
      last = p;
    }
  }
  return { t: ts, p: ps };
}

function dateLabel(t: number): string {
  return new Date(t).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

function marketRow(plan: MarketPlan): MarketRow {
  const when = dateLabel(plan.scheduled_end);
  return {
    id: plan.id,
    question: `Will ${plan.subject.clause} by ${when}?`,
    description: `This market resolves Yes if ${plan.subject.clause} by ${when} (UTC), as confirmed by official sources. Otherwise it resolves No. Related parties: ${plan.subject.actor}; ${plan.subject.person}.`,
    outcomes: ["Yes", "No"],
    open: plan.open,
    scheduled_end: plan.scheduled_end,
    visible_at: plan.open,
  };
}

/** t_det: the first point where the winner's price is ≥ 0.99 and never again < 0.95 */
export function detectionTime(yes: MarketPlan["yes"], result: "Yes" | "No"): number | null {
  let tDet: number | null = null;
  for (let i = 0; i < yes.t.length; i++) {
    const pw = result === "Yes" ? (yes.p[i] as number) : roundP(1 - (yes.p[i] as number));
    if (pw < 0.95) tDet = null;
    else if (pw >= 0.99 && tDet === null) tDet = yes.t[i] as number;
  }
  return tDet;
}

interface Ctx {
  from: number;
  start: number;
  end: number;
  news: NewsDraft[];
  ids: IdMinter;
  /** the different-futures cut T (+∞ in the ordinary world) */
  cut: number;
  /** the breakout markets' subjects as dealt (a multi-market headline names a second one) */
  breakoutSubjects: readonly MarketSubject[];
}

/**
 * One market's different future (README "Prefix stability"): `pick(t)` is the stream a draw made
 * for the grid step at t comes from, the market's own stream for every step whose price is visible
 * at the cut (t + priceDelay ≤ T) and the future stream `f` after it. In the ordinary world `f`
 * is null and every draw is the market's own.
 */
class MarketFuture {
  /** the last grid step drawn from the world's stream */
  readonly stepCut: number;
  constructor(
    readonly rng: Rng,
    readonly f: Rng | null,
    readonly cut: number,
  ) {
    this.stepCut = cut - MARKET_PARAMS.priceDelayMs;
  }
  pick(t: number): Rng {
    return this.f !== null && t > this.stepCut ? this.f : this.rng;
  }
  /** a time drawn by `draw` after the cut (64 draws), else `fallback` (the ordinary world's) */
  after(fallback: number, ok: (t: number) => boolean, draw: (f: Rng) => number): number {
    if (this.f === null) return fallback;
    for (let i = 0; i < 64; i++) {
      const t = draw(this.f);
      if (ok(t)) return t;
    }
    return fallback;
  }
}

function futureOf(rng: Rng, future: FutureStream, label: string): MarketFuture {
  return new MarketFuture(rng, future ? future.rng.split(label) : null, future?.from ?? Number.POSITIVE_INFINITY);
}

/**
 * A Poisson stream of articles about a market from `open − 5 days` (or the history start) to
 * `until`, `perDay` a day, each drawn by `draw(g, key, t)`; with a future it restarts at the cut
 * from the future stream (memoryless), keys counting on, so what is out by the cut is the world's.
 */
function poissonNews(
  rng: Rng,
  ctx: Ctx,
  plan: MarketPlan,
  until: number,
  fut: Rng | null,
  perDay: number,
  label: string,
  draw: (g: Rng, key: string, t: number) => NewsDraft,
): void {
  const t0 = Math.max(ctx.from, plan.open - 5 * DAY);
  let t = t0;
  let k = 0;
  let g = rng;
  for (;;) {
    t += g.exp(perDay / DAY);
    if (fut !== null && g !== fut && t > ctx.cut) {
      g = fut; // memoryless: the stream restarts at the cut
      t = Math.max(ctx.cut, t0);
      continue;
    }
    if (t >= until) break;
    ctx.news.push(draw(g, `${plan.id}:${label}${pad(k++, 3)}`, t));
  }
}

/** neutral chatter, a Poisson stream; with a future it restarts at the cut from the future stream */
function chatter(rng: Rng, ctx: Ctx, plan: MarketPlan, until: number, fut: Rng | null = null): void {
  poissonNews(rng, ctx, plan, until, fut, MARKET_PARAMS.chatterPerDay, "chat", (g, key, t) =>
    article(g, key, t, plan.subject, NEUTRAL, NEUTRAL_MIDDLE),
  );
}

/** another breakout market's subject than `subj`, drawn from `g` */
function otherSubject(g: Rng, ctx: Ctx, subj: MarketSubject): MarketSubject {
  const others = ctx.breakoutSubjects.filter((x) => x !== subj);
  return g.pick(others);
}

/**
 * Decoys of a breakout market (README "Distractors"): catalyst-like articles that no move follows,
 * drawn like a catalyst (direction, the catalysts' headline and body templates, a second market
 * named in `decoyMultiShare` of them), a Poisson stream restarting at the cut like chatter.
 */
function decoys(rng: Rng, ctx: Ctx, plan: MarketPlan, until: number, fut: Rng | null): void {
  const P = MARKET_PARAMS;
  poissonNews(rng, ctx, plan, until, fut, P.decoysPerDay, "dec", (g, key, t) => {
    const up = g.chance(0.5);
    const other = g.chance(P.decoyMultiShare) ? otherSubject(g, ctx, plan.subject) : null;
    const titles = other === null ? (up ? UP : DOWN) : up ? UP_MULTI : DOWN_MULTI;
    return article(g, key, t, plan.subject, titles, up ? UP_MIDDLE : DOWN_MIDDLE, other);
  });
}

function marketId(ctx: Ctx, prefix: string, subject: MarketSubject, open: number, scheduledEnd: number): string {
  return `${prefix}${ctx.ids.hex("market", [subject.clause, open, scheduledEnd], 8)}`;
}

function breakoutMarket(rng: Rng, ctx: Ctx, subject: MarketSubject, out: MarketStreams, fu: MarketFuture): void {
  const P = MARKET_PARAMS;
  const W = ctx.end - ctx.start;
  const open = utcDayStart(ctx.from) - (20 + rng.int(60)) * DAY;
  const scheduled_end = utcDayStart(ctx.end) + (60 + rng.int(90)) * DAY;
  const id = marketId(ctx, BREAKOUT_MARKET_PREFIX, subject, open, scheduled_end);
  const plan: MarketPlan = {
    id,
    subject,
    role: "breakout",
    kind: "breakout",
    open,
    scheduled_end,
    closed_at: null,
    result: null,
    yes: { t: [], p: [] },
  };
  // breakpoint start times
  const starts: number[] = [];
  let t = ctx.start + 14 * HOUR + rng.uniform(0, Math.min(3 * DAY, W / 3));
  while (t < ctx.end - 3 * HOUR) {
    starts.push(ctx.from + Math.floor((t - ctx.from) / P.stepMs) * P.stepMs);
    t += P.breakpointMinGapMs + rng.exp(1 / P.breakpointMeanExtraGapMs);
  }
  if (fu.f !== null) {
    // different future: the schedule after the last step drawn from the world's stream is re-drawn
    // (the gap after the cut restarts at the cut: a 36 h minimum from the last kept start, then exponential)
    const kept = starts.filter((s) => s <= fu.stepCut);
    const last = kept.at(-1);
    starts.length = 0;
    starts.push(...kept);
    let u =
      Math.max(fu.stepCut + P.stepMs, last === undefined ? ctx.start + 14 * HOUR : last + P.breakpointMinGapMs) +
      fu.f.exp(1 / P.breakpointMeanExtraGapMs);
    while (u < ctx.end - 3 * HOUR) {
      starts.push(ctx.from + Math.floor((u - ctx.from) / P.stepMs) * P.stepMs);
      u += P.breakpointMinGapMs + fu.f.exp(1 / P.breakpointMeanExtraGapMs);
    }
  }
  const jumpAt = new Map<number, number>(); // step index -> breakpoint index
  const t0 = ctx.from;
  for (let b = 0; b < starts.length; b++) jumpAt.set(((starts[b] as number) - t0) / P.stepMs, b);
  const jumps: { k0: number; m: number; dx: number }[] = [];
  let active: { k0: number; m: number; dx: number } | null = null;
  const xMax = 3.2;
  plan.yes = runPath(t0, ctx.end, rng.uniform(-1.2, 1.2), (k, st, x) => {
    const g = fu.pick(st);
    const b = jumpAt.get(k);
    if (b !== undefined) {
      const dir = x > 1.0 ? -1 : x < -1.0 ? 1 : g.chance(0.5) ? 1 : -1;
      active = { k0: k, m: 2 + g.int(17), dx: dir * g.uniform(P.jumpLogitMin, P.jumpLogitMax) };
      jumps.push(active);
    }
    if (active && k < active.k0 + active.m) {
      return Math.max(-xMax, Math.min(xMax, x + active.dx / active.m));
    }
    const nx = g.chance(P.breakoutChangeProb) ? x - 0.002 * x + P.breakoutStepSd * g.normal() : x;
    return Math.max(-xMax, Math.min(xMax, nx));
  });
  out.plans.push(plan);
  // breakpoints from emitted points; those starting after the cut draw their news from the future
  const worldNews = rng.split("news");
  const futureNews = fu.f?.split("news") ?? worldNews;
  for (let b = 0; b < jumps.length; b++) {
    const j = jumps[b] as { k0: number; m: number; dx: number };
    const js = t0 + j.k0 * P.stepMs;
    const je = t0 + (j.k0 + j.m - 1) * P.stepMs;
    const { t: ts, p: ps } = plan.yes;
    let iStart = ts.findIndex((x) => x >= js);
    if (iStart < 0) continue;
    let iEnd = iStart;
    while (iEnd + 1 < ts.length && (ts[iEnd + 1] as number) <= je) iEnd++;
    const before = iStart > 0 ? (ps[iStart - 1] as number) : (ps[iStart] as number);
    const size = Math.round(((ps[iEnd] as number) - before) * 1000) / 1000;
    if (Math.abs(size) < 0.05) continue; // swallowed by the clamp: not a breakpoint
    if ((ts[iStart] as number) >= ctx.end) continue;
    iStart = Math.max(iStart, 0);
    const tStart = ts[iStart] as number;
    const news = js > fu.stepCut ? futureNews : worldNews;
    const bpId = `${id}-bp-${ctx.ids.hex("breakpoint", [id, tStart], 6)}`;
    out.breakpoints.push({ id: bpId, market: id, t_start: tStart, t_end: ts[iEnd] as number, size });
    const titles = size > 0 ? UP : DOWN;
    const middles = size > 0 ? UP_MIDDLE : DOWN_MIDDLE;
    const leadRng = js > fu.stepCut && fu.f !== null ? fu.f : rng;
    const lead = () => leadRng.uniform(P.catalystLeadMinMs, P.catalystLeadMaxMs);
    const attr = (key: string, group: string, confidence: number) =>
      out.attributions.push({
        breakpoint: bpId,
        news_id: key,
        group_id: `${bpId}-${group}`,
        confidence: Math.round(confidence * 100) / 100,
      });
    if (news.chance(P.explainedShare)) {
      const tA = tStart - lead();
      const kA = `${bpId}:cat1`;
      const otherA = news.chance(P.catalystMultiShare) ? otherSubject(news, ctx, subject) : null;
      const titlesA = otherA === null ? titles : size > 0 ? UP_MULTI : DOWN_MULTI;
      ctx.news.push(article(news, kA, tA, subject, titlesA, middles, otherA));
      const confA = news.uniform(0.7, 0.95);
      attr(kA, "g1", confA);
      if (news.chance(0.4)) {
        const tA2 = Math.min(tA + news.uniform(0.1, 2) * HOUR, tStart - P.catalystLeadMinMs);
        const kA2 = `${bpId}:cat2`;
        ctx.news.push(article(news, kA2, tA2, subject, titles, middles));
        attr(kA2, "g1", confA - 0.05);
      }
      if (news.chance(0.3)) {
        const kB = `${bpId}:cat3`;
        ctx.news.push(article(news, kB, tStart - lead(), subject, titles, middles));
        attr(kB, "g2", news.uniform(0.6, 0.8));
      }
    } else if (news.chance(0.5)) {
      const kW = `${bpId}:weak`;
      ctx.news.push(article(news, kW, tStart - news.uniform(1, 20) * HOUR, subject, titles, middles));
      attr(kW, "g1", news.uniform(0.3, 0.55));
    }
    const kR = `${bpId}:reaction`;
    ctx.news.push(article(news, kR, tStart + news.uniform(0.5, 4) * HOUR, subject, REACTION, middles));
    attr(kR, "gR", 0.65);
    const nd = 2 + news.int(2);
    for (let d = 0; d < nd; d++) {
      ctx.news.push(
        article(news, `${bpId}:dis${d}`, tStart + news.uniform(-30, 6) * HOUR, subject, NEUTRAL, NEUTRAL_MIDDLE),
      );
    }
    if (news.chance(P.lateCatalystShare)) {
      // a catalyst published once the move is under way: attributed, never gold (published ≥ t_start)
      const tEnd = ts[iEnd] as number;
      const kL = `${bpId}:late`;
      ctx.news.push(article(news, kL, tStart + news.uniform(0, tEnd - tStart + HOUR), subject, titles, middles));
      attr(kL, "gL", news.uniform(0.6, 0.9));
    }
  }
  chatter(rng.split("chatter"), ctx, plan, ctx.end, fu.f?.split("chatter") ?? null);
  decoys(rng.split("decoys"), ctx, plan, ctx.end, fu.f?.split("decoys") ?? null);
}

function longDatedKind(idx: number): LongDatedKind {
  if (idx < 7) return "event";
  if (idx < 9) return "deadline";
  if (idx === 9) return "false_band";
  return "open";
}

function longDatedMarket(
  rng: Rng,
  ctx: Ctx,
  idx: number,
  subject: MarketSubject,
  out: MarketStreams,
  fu: MarketFuture,
): void {
  const P = MARKET_PARAMS;
  // a key for this market's news drafts (internal: drafts get opaque news ids in generate.ts)
  const key = `long-${idx}`;
  const kind = longDatedKind(idx);
  const W = ctx.end - ctx.start;
  let news = rng.split("news");
  const sl = subject;
  const midOpen = idx >= 14 && idx <= 17;
  const open = midOpen
    ? ctx.start + Math.floor((rng.uniform(0.1, 0.5) * W) / HOUR) * HOUR
    : utcDayStart(ctx.from) - (20 + rng.int(70)) * DAY;
  let scheduled_end = utcDayStart(ctx.end) + (30 + rng.int(150)) * DAY;
  let closed_at: number | null = null;
  let result: "Yes" | "No" | null = null;
  let step: (k: number, t: number, x: number) => number;
  const noise = (t: number, x: number) => {
    const g = fu.pick(t);
    return g.chance(P.longDatedChangeProb) ? x + P.longDatedStepSd * g.normal() : x;
  };
  const clampOpen = (x: number) => Math.max(logit(0.03), Math.min(logit(0.97), x));
  let x0 = rng.uniform(-1.5, 1.5);
  const seriesStart = Math.max(ctx.from, Math.floor(open / P.stepMs) * P.stepMs);
  let seriesEnd = ctx.end;
  switch (kind) {
    case "event": {
      result = rng.chance(0.6) ? "Yes" : "No";
      let tDet = Math.floor((ctx.start + rng.uniform(0.15, 0.85) * W) / P.stepMs) * P.stepMs;
      let tLeak = tDet - rng.uniform(8, 36) * HOUR;
      let target = logit(rng.uniform(0.8, 0.92));
      let hold = logit(rng.uniform(0.992, 0.997));
      closed_at = tDet + Math.floor(rng.uniform(2, 30) * 60) * MINUTE;
      // the ordinary world's glide (all a different future keeps of it is what is visible at the cut)
      const signA = result === "Yes" ? 1 : -1;
      const [tDetA, targetA] = [tDet, signA * target];
      // a different future re-draws what is not out at the cut: the whole event when even its leak
      // is later; its outcome and time (the price gliding on from where it stands) when the leak is
      // out but the official news cannot be (it comes at most 3 h before t_det)
      const whole = fu.f !== null && tLeak > fu.cut;
      const outcome = fu.f !== null && !whole && tDet - 3 * HOUR > fu.cut;
      let reglide = false;
      if (fu.f !== null && (whole || outcome)) {
        const f = fu.f.split("event");
        const lead = whole ? 8 * HOUR : 3 * HOUR;
        const det = fu.after(
          tDet,
          (t) => t - lead > fu.cut,
          (g) => Math.floor((ctx.start + g.uniform(0.15, 0.85) * W) / P.stepMs) * P.stepMs,
        );
        if (det !== tDet) {
          tDet = det;
          result = f.chance(0.6) ? "Yes" : "No";
          if (whole) tLeak = Math.max(fu.cut + 1000, tDet - f.uniform(8, 36) * HOUR);
          target = logit(f.uniform(0.8, 0.92));
          hold = logit(f.uniform(0.992, 0.997));
          closed_at = tDet + Math.floor(f.uniform(2, 30) * 60) * MINUTE;
          news = fu.f.split("news");
          reglide = outcome;
        }
      }
      const sign = result === "Yes" ? 1 : -1;
      target *= sign;
      hold *= sign;
      seriesEnd = closed_at;
      let glideFrom: number | null = null;
      let reglideFrom: number | null = null;
      const [tD, tL, tgt, hd] = [tDet, tLeak, target, hold];
      const band = (x: number) => Math.min(logit(0.97), Math.max(logit(0.03), x));
      step = (_k, t, x) => {
        const g = fu.pick(t);
        if (t >= tD) return sign * Math.max(logit(0.9905), sign * (hd + 0.2 * g.normal()));
        if (reglide && t > fu.stepCut) {
          if (reglideFrom === null) reglideFrom = x;
          const f = Math.min(1, (t - fu.stepCut) / Math.max(P.stepMs, tD - 30 * MINUTE - fu.stepCut));
          return band(reglideFrom + f * (tgt - reglideFrom) + 0.03 * g.normal());
        }
        if (t >= tL) {
          // before the cut of an outcome re-drawn, the glide is the ordinary world's
          const [d, to] = reglide ? [tDetA, targetA] : [tD, tgt];
          if (glideFrom === null) glideFrom = x;
          const f = Math.min(1, (t - tL) / Math.max(P.stepMs, d - 30 * MINUTE - tL));
          return band(glideFrom + f * (to - glideFrom) + 0.03 * g.normal());
        }
        return clampOpen(noise(t, x));
      };
      const lk = news.chance(0.8);
      if (lk)
        pushNews(
          ctx,
          article(
            news,
            `${key}:leak`,
            tLeak,
            sl,
            result === "Yes" ? LEAK_YES : LEAK_NO,
            result === "Yes" ? UP_MIDDLE : DOWN_MIDDLE,
          ),
        );
      pushNews(
        ctx,
        article(
          news,
          `${key}:official`,
          tDet - news.uniform(0.5, 3) * HOUR,
          sl,
          result === "Yes" ? OFFICIAL_YES : OFFICIAL_NO,
          result === "Yes" ? UP_MIDDLE : DOWN_MIDDLE,
        ),
      );
      pushNews(ctx, article(news, `${key}:after`, tDet + news.uniform(2, 20) * HOUR, sl, REACTION, NEUTRAL_MIDDLE));
      break;
    }
    case "deadline": {
      result = "No";
      scheduled_end = utcDayStart(ctx.start + rng.uniform(0.6, 0.95) * W) + DAY;
      const tDet = Math.floor((scheduled_end - rng.uniform(12, 40) * HOUR) / P.stepMs) * P.stepMs;
      const tFade = Math.max(seriesStart, tDet - Math.min(10 * DAY, 0.5 * W));
      const hold = logit(rng.uniform(0.003, 0.008));
      closed_at = scheduled_end;
      seriesEnd = closed_at;
      x0 = rng.uniform(-1.5, 0);
      let glideFrom: number | null = null;
      step = (_k, t, x) => {
        const g = fu.pick(t);
        if (t >= tDet) return Math.min(logit(0.0095), hold + 0.15 * g.normal());
        if (t >= tFade) {
          if (glideFrom === null) glideFrom = x;
          const f = Math.min(1, (t - tFade) / Math.max(P.stepMs, tDet - tFade));
          return Math.max(logit(0.02), glideFrom + f * (logit(0.02) - glideFrom) + 0.03 * g.normal());
        }
        return clampOpen(noise(t, x));
      };
      pushNews(ctx, article(news, `${key}:fade`, tDet - news.uniform(1, 12) * HOUR, sl, DEADLINE_FADE, DOWN_MIDDLE));
      pushNews(
        ctx,
        article(news, `${key}:passed`, scheduled_end + news.uniform(0.5, 6) * HOUR, sl, DEADLINE_PASS, DOWN_MIDDLE),
      );
      break;
    }
    case "false_band": {
      let tSpike = Math.floor((ctx.start + rng.uniform(0.3, 0.6) * W) / P.stepMs) * P.stepMs;
      let tDrop = tSpike + Math.floor(rng.uniform(2, 5) * 6) * P.stepMs;
      let after = logit(rng.uniform(0.85, 0.9));
      // the rumour comes at most 2 h before the spike: a spike whose rumour is after the cut is re-drawn
      if (fu.f !== null && tSpike - 2 * HOUR > fu.cut) {
        const spike = fu.after(
          tSpike,
          (t) => t - 2 * HOUR > fu.cut,
          (g) => Math.floor((ctx.start + g.uniform(0.3, 0.6) * W) / P.stepMs) * P.stepMs,
        );
        if (spike !== tSpike) {
          const f = fu.f.split("spike");
          tSpike = spike;
          tDrop = tSpike + Math.floor(f.uniform(2, 5) * 6) * P.stepMs;
          after = logit(f.uniform(0.85, 0.9));
          news = fu.f.split("news");
        }
      }
      const [tS, tDr, aft] = [tSpike, tDrop, after];
      step = (_k, t, x) => {
        const g = fu.pick(t);
        if (t >= tS && t < tDr) return logit(g.uniform(0.991, 0.995));
        if (t >= tDr && t < tDr + P.stepMs) return aft;
        return clampOpen(noise(t, x));
      };
      pushNews(ctx, article(news, `${key}:rumor`, tSpike - news.uniform(0.2, 2) * HOUR, sl, SPIKE_RUMOR, UP_MIDDLE));
      pushNews(
        ctx,
        article(news, `${key}:denial`, tDrop - news.uniform(0, 0.5) * HOUR, sl, SPIKE_DENIAL, NEUTRAL_MIDDLE),
      );
      break;
    }
    case "open":
      step = (_k, t, x) => clampOpen(noise(t, x));
      break;
  }
  const plan: MarketPlan = {
    id: marketId(ctx, LONG_DATED_MARKET_PREFIX, subject, open, scheduled_end),
    subject,
    role: "long_dated",
    kind,
    open,
    scheduled_end,
    closed_at,
    result,
    yes: runPath(seriesStart, seriesEnd, x0, step),
  };
  out.plans.push(plan);
  chatter(rng.split("chatter"), ctx, plan, ctx.end, fu.f?.split("chatter") ?? null);
}

function pushNews(ctx: Ctx, d: NewsDraft): void {
  ctx.news.push(d);
}

/** a Fisher–Yates shuffle of a copy */
function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

/**
 * Markets from the history start `from` (= start − 8 days) to the window end. With `future` (cut T,
 * README "Prefix stability") every price step not visible at T, every breakpoint starting after it
 * and every event, spike and chatter article not yet out at T is drawn from the future stream; the
 * market news of the world is then the ordinary world's articles published by T and this world's
 * own after T (a pre-T catalyst of a move the new future no longer makes stays, as a true article
 * whose story did not happen), so everything visible at T is the ordinary world's by construction.
 */
export function generateMarkets(
  rng: Rng,
  from: number,
  start: number,
  end: number,
  ids: IdMinter,
  future: FutureStream = null,
): MarketStreams {
  const out = drawMarkets(rng, from, start, end, ids, future);
  if (future === null) return out;
  const past = drawMarkets(rng, from, start, end, ids, null).news.filter((d) => d.published_at <= future.from);
  const pastKeys = new Set(past.map((d) => d.key));
  out.news = [...past, ...out.news.filter((d) => d.published_at > future.from && !pastKeys.has(d.key))];
  const keys = new Set(out.news.map((d) => d.key));
  out.attributions = out.attributions.filter((a) => keys.has(a.news_id));
  return out;
}

function drawMarkets(
  rng: Rng,
  from: number,
  start: number,
  end: number,
  ids: IdMinter,
  future: FutureStream,
): MarketStreams {
  const out: MarketStreams = {
    markets: [],
    prices: [],
    resolutions: [],
    news: [],
    breakpoints: [],
    attributions: [],
    labels: [],
    plans: [],
  };
  // subjects are dealt to markets per seed, so no subject text is tied to a role or kind
  const subjects = rng.split("subjects");
  const brk = shuffled(subjects, BREAKOUT_SUBJECTS);
  const ld = shuffled(subjects, LONG_DATED_SUBJECTS);
  const ctx: Ctx = {
    from,
    start,
    end,
    news: out.news,
    ids,
    cut: future?.from ?? Number.POSITIVE_INFINITY,
    breakoutSubjects: brk,
  };
  for (let i = 0; i < brk.length; i++) {
    const r = rng.split(`breakout-${i}`);
    breakoutMarket(r, ctx, brk[i] as MarketSubject, out, futureOf(r, future, `breakout-${i}`));
  }
  for (let i = 0; i < ld.length; i++) {
    const r = rng.split(`long-${i}`);
    longDatedMarket(r, ctx, i, ld[i] as MarketSubject, out, futureOf(r, future, `long-${i}`));
  }
  for (const plan of out.plans) {
    out.markets.push(marketRow(plan));
    const { t, p } = plan.yes;
    for (let i = 0; i < t.length; i++) {
      const ti = t[i] as number;
      const pi = p[i] as number;
      const v = ti + MARKET_PARAMS.priceDelayMs;
      out.prices.push({ market: plan.id, outcome: "Yes", t: ti, p: pi, visible_at: v });
      out.prices.push({ market: plan.id, outcome: "No", t: ti, p: roundP(1 - pi), visible_at: v });
    }
    if (plan.closed_at !== null && plan.result !== null) {
      out.resolutions.push({
        market: plan.id,
        closed_at: plan.closed_at,
        result: plan.result,
        visible_at: plan.closed_at,
      });
      const tDet = detectionTime(plan.yes, plan.result);
      if (tDet !== null) out.labels.push({ kind: "t_det", key: plan.id, t: tDet, value: { outcome: plan.result } });
    }
  }
  return out;
}
