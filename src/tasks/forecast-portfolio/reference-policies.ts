import { z } from "zod";
import { DAY_MS, HOUR_MS, parseIsoInstant } from "../../common/time.js";
import { anyOf, questionTerms, termHits } from "../headline-match.js";
import { SEARCH_NEWS_TOOL } from "../news-tools.js";
import { type PolicyStep, runSteps, type StepResult, type StepScript } from "../policy-steps.js";
import { oracleStatelessPolicy, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import type { Forecast } from "./brier.js";
import { LIST_QUESTIONS_TOOL, SUBMIT_FORECAST_TOOL } from "./forecast-tools.js";
import { MarketFacts } from "./market-facts.js";
import { CUE_QUERY, headlineCue } from "./news-cues.js";
import { ForecastPortfolioParams } from "./params.js";

/** The parts of `list_questions` the policies read (validated: a policy trusts no shape blindly). */
const Listed = z.object({
  questions: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      outcomes: z.array(z.string()),
      open: z.string(),
      scheduled_end: z.string(),
      my_forecast: z.record(z.string(), z.number()).nullable(),
    }),
  ),
});
type Listed = z.infer<typeof Listed>;
type ListedQuestion = Listed["questions"][number];

const Hits = z.object({ hits: z.array(z.object({ id: z.string(), title: z.string(), published_at: z.string() })) });

/** the first multiple of `stepMs` strictly after `now` */
export const nextMultiple = (now: number, stepMs: number) => (Math.floor(now / stepMs) + 1) * stepMs;

/** same forecast up to `eps` on every outcome (an unnamed outcome counts as 0) */
export function sameForecast(a: Forecast | null, b: Forecast, eps = 1e-9): boolean {
  if (a === null) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (Math.abs((a[k] ?? 0) - (b[k] ?? 0)) > eps) return false;
  return true;
}

/** a binary forecast putting `p` on the first outcome and 1 − p on the second */
export function binaryForecast(outcomes: readonly string[], p: number): Forecast {
  const [a, b] = outcomes as [string, string];
  return { [a]: p, [b]: Math.round((1 - p) * 1e12) / 1e12 };
}

function* openQuestions(): Generator<PolicyStep, ListedQuestion[], StepResult> {
  const r = yield { tool: LIST_QUESTIONS_TOOL, args: { status: "open" } };
  if (!r.ok) throw new Error(`${LIST_QUESTIONS_TOOL} failed: ${r.error}`);
  return Listed.parse(r.value).questions;
}

async function openQuestionsVia(api: PolicyApi): Promise<ListedQuestion[]> {
  const r = await api.call(LIST_QUESTIONS_TOOL, { status: "open" });
  if (!r.ok) throw new Error(`${LIST_QUESTIONS_TOOL} failed: ${r.error}`);
  return Listed.parse(r.value).questions;
}

/** Floor and uniform anchor: never forecasts, so every question stands at the uniform default. */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool: every question keeps the uniform default forecast (the uniform anchor).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

const hourly = (now: number) => nextMultiple(now, HOUR_MS);

/**
 * Oracle (tests and calibration only): every hour, forecasts probability 1 on the true result of
 * every open question that resolves in the world (read from the untouched world's resolutions).
 * A question available at the first wake scores TA = 1 exactly.
 */
export const oraclePolicy: ReferencePolicy = oracleStatelessPolicy({
  name: "oracle",
  description:
    "Reads the untouched world: every hour, forecasts 1 on the true result of every open question that resolves.",
  async act(api, env) {
    const p = ForecastPortfolioParams.parse(env.params ?? {});
    const facts = new MarketFacts(env.world.db, p.market_prefix);
    for (const q of await openQuestionsVia(api)) {
      const r = facts.resolution(q.id);
      if (r === null || !q.outcomes.includes(r.result)) continue;
      const f: Forecast = Object.fromEntries(q.outcomes.map((o) => [o, o === r.result ? 1 : 0]));
      if (!sameForecast(q.my_forecast, f)) await api.call(SUBMIT_FORECAST_TOOL, { question_id: q.id, forecast: f });
    }
  },
  nextWake: hourly,
  cron: ["0 * * * *"],
});

/**
 * The market-price forecaster (an anchor; oracle-side because prices are scorer-side only in this
 * task): every hour, forecasts each open question at the first outcome's latest price visible now
 * (and 1 − p on the other), when it changed. The scorer's `anchor_market_bss` is the same
 * forecaster updated at every visible price change.
 */
export const marketPricePolicy: ReferencePolicy = oracleStatelessPolicy({
  name: "market-price",
  description:
    "Reads the scorer-side prices: every hour, forecasts each open question at its latest visible market price.",
  async act(api, env) {
    const p = ForecastPortfolioParams.parse(env.params ?? {});
    const facts = new MarketFacts(env.world.db, p.market_prefix);
    const now = api.now();
    for (const q of await openQuestionsVia(api)) {
      const price = facts.priceAt(q.id, q.outcomes[0]!, now);
      if (price === null) continue;
      const f = binaryForecast(q.outcomes, price);
      if (!sameForecast(q.my_forecast, f)) await api.call(SUBMIT_FORECAST_TOOL, { question_id: q.id, forecast: f });
    }
  },
  nextWake: hourly,
  cron: ["0 * * * *"],
});

/** Settings of the news forecaster (policy constants, not task parameters). */
export const NEWS_FORECASTER = {
  periodHours: 3,
  /** how far back it reads news (bounded by the question's open) */
  lookbackDays: 30,
  /** a headline is about the question when it mentions this many of the question's distinctive words (and one of its names) */
  minTermHits: 2,
  /** odds factor per lean cue */
  leanOdds: 3,
  strongYes: 0.97,
  strongNo: 0.03,
  /** with no strong cue, the probability is kept in [floor, 1 − floor] */
  floor: 0.05,
  /** with no strong cue, the Yes prior falls linearly from 0.5 to `deadlinePrior` over the last `deadlineDays` */
  deadlineDays: 14,
  deadlinePrior: 0.15,
} as const;

const MONTHS = /^(January|February|March|April|May|June|July|August|September|October|November|December)$/;

/** The capitalized words of a question after its first word (names of the actors and places), as search terms. */
export function nameTerms(question: string): string[] {
  const words = question.match(/[A-Z][A-Za-z-]+/g) ?? [];
  const names = words.slice(question.match(/^[A-Z]/) ? 1 : 0).filter((w) => !MONTHS.test(w));
  return questionTerms(names.join(" "));
}

/** The news forecaster's probability for the first outcome, from the headlines about a question. */
export function newsProbability(titles: readonly string[], now: number, scheduledEnd: number): number {
  const N = NEWS_FORECASTER;
  let lean = 0;
  let strong: "yes" | "no" | null = null;
  for (const t of titles) {
    const c = headlineCue(t);
    if (c === "strong_yes") strong = "yes";
    else if (c === "strong_no") strong = "no";
    else if (c === "lean_yes") lean++;
    else if (c === "lean_no") lean--;
  }
  if (strong === "yes") return N.strongYes;
  if (strong === "no") return N.strongNo;
  const daysLeft = (scheduledEnd - now) / DAY_MS;
  const prior =
    daysLeft >= N.deadlineDays
      ? 0.5
      : N.deadlinePrior + (0.5 - N.deadlinePrior) * Math.max(0, daysLeft / N.deadlineDays);
  const logit = Math.log(prior / (1 - prior)) + lean * Math.log(N.leanOdds);
  const p = 1 / (1 + Math.exp(-logit));
  return Math.round(Math.min(1 - N.floor, Math.max(N.floor, p)) * 1000) / 1000;
}

/**
 * One wake of the honest news forecaster, as a step script (the scripted agent and the LLM-agent
 * tests run the same calls). For each open question: one `search_news` page for the question's
 * distinctive words AND cue words, published since max(open, now − 30 days); the headlines that
 * mention ≥ 2 of the question's words are read for cues (newest last); the probability of the first
 * outcome is set by the latest strong cue (0.97 / 0.03), else by the lean cues (odds × 3 each) on a
 * prior that falls toward 0.15 as the scheduled end nears; submitted when it changed.
 */
export function* newsForecasterSteps(now: number): StepScript {
  const N = NEWS_FORECASTER;
  const qs = yield* openQuestions();
  for (const q of qs) {
    const terms = questionTerms(q.question);
    if (terms.length === 0) continue;
    const from = Math.max(parseIsoInstant(q.open), now - N.lookbackDays * DAY_MS);
    const r = yield {
      tool: SEARCH_NEWS_TOOL,
      args: { q: `(${anyOf(terms)}) AND (${CUE_QUERY})`, date_from: from },
    };
    if (!r.ok) continue;
    const names = nameTerms(q.question);
    const titles = Hits.parse(r.value)
      .hits.filter(
        (h) => termHits(h.title, terms) >= N.minTermHits && (names.length === 0 || termHits(h.title, names) >= 1),
      )
      .sort((a, b) => Date.parse(a.published_at) - Date.parse(b.published_at) || (a.id < b.id ? -1 : 1))
      .map((h) => h.title);
    const pYes = newsProbability(titles, now, parseIsoInstant(q.scheduled_end));
    // the cues speak about "Yes": put pYes on the outcome labelled Yes (the first outcome when none is)
    const yesFirst = q.outcomes.findIndex((o) => o.toLowerCase() === "yes") !== 1;
    const f = binaryForecast(q.outcomes, yesFirst ? pYes : Math.round((1 - pYes) * 1e12) / 1e12);
    if (!sameForecast(q.my_forecast, f)) yield { tool: SUBMIT_FORECAST_TOOL, args: { question_id: q.id, forecast: f } };
  }
}

export const newsForecasterPolicy: ReferencePolicy = statelessPolicy({
  name: "news-forecaster",
  description:
    `Every ${NEWS_FORECASTER.periodHours} h: for each open question, one search_news page (question words AND cue words) and a ` +
    "forecast from the latest strong cue, else lean cues on a prior that falls as the scheduled end nears.",
  async act(api) {
    await runSteps(api, newsForecasterSteps(api.now()));
  },
  nextWake: (now) => nextMultiple(now, NEWS_FORECASTER.periodHours * HOUR_MS),
  cron: [`0 */${NEWS_FORECASTER.periodHours} * * *`],
});

export const forecastPortfolioPolicies: ReferencePolicy[] = [
  silentPolicy,
  oraclePolicy,
  marketPricePolicy,
  newsForecasterPolicy,
];
