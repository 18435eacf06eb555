import { z } from "zod";
import { HOUR_MS, isoInstant, MINUTE_MS } from "../../common/time.js";
import type { TruthStore } from "../../world/truth-store.js";
import type { WorldStore } from "../../world/world-store.js";
import { anyOf, questionTerms, termHits } from "../headline-match.js";
import { SEARCH_NEWS_TOOL } from "../news-tools.js";
import { runSteps, type StepScript } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { ReferencePolicy } from "../task.js";
import { isQuestion, ResolutionDetectParams } from "./params.js";
import { ResolutionTruth } from "./question-truth.js";
import { GET_MARKS_TOOL, LIST_QUESTIONS_TOOL, MARK_OUTCOME_TOOL } from "./tools.js";

const QuestionsAnswer = z.object({
  questions: z.array(z.object({ id: z.string(), question: z.string(), outcomes: z.array(z.string()) })),
  next_offset: z.number().nullable(),
});
const MarksAnswer = z.object({ marks: z.array(z.object({ question_id: z.string() })) });
const SearchAnswer = z.object({
  hits: z.array(z.object({ id: z.string(), title: z.string(), published_at: z.string() })),
});

/** Headline cues that a question has been decided (generic English, word boundaries). */
export const NO_CUES = /\b(abandons|will not happen|deadline passes without|formally rejects|is cancelled)\b/i;
export const YES_CUES = /\b(confirms|it's official|goes ahead)\b/i;
/** The search that finds decisive headlines: any cue word, AND any of the question's words. */
export const CUE_QUERY = 'confirms OR official OR "goes ahead" OR abandons OR happen OR "deadline passes" OR rejects';

/** The heuristic's fixed settings (documented in the README). */
export const NEWS_CUE = {
  /** wakes every this many hours, on the hour (UTC) */
  everyHours: 3,
  /** the first search of a question looks back this far */
  firstLookbackMs: 48 * HOUR_MS,
  /** a headline must mention at least this many distinct question terms */
  minTermHits: 2,
} as const;

/** Question terms a headline mentions outside its cue words (a cue such as "confirms" is no subject match). */
export function subjectHits(title: string, terms: readonly string[]): number {
  return termHits(
    title.replace(new RegExp(NO_CUES.source, "gi"), " ").replace(new RegExp(YES_CUES.source, "gi"), " "),
    terms,
  );
}

/** The outcome a headline announces for a binary Yes/No question, or null. No-cues win over yes-cues. */
export function headlineOutcome(title: string): "Yes" | "No" | null {
  if (NO_CUES.test(title)) return "No";
  if (YES_CUES.test(title)) return "Yes";
  return null;
}

export interface NewsCueState {
  /** per question: the instant of its last search */
  lastSearch: Map<string, number>;
}

export const newsCueState = (): NewsCueState => ({ lastSearch: new Map() });

/**
 * One wake of the `news-cue` heuristic (visible tools only): list the questions and your marks;
 * for each unmarked question, search the news published since its last search for a decisive cue
 * word together with the question's own words; keep headlines that mention at least two of those
 * words and announce an outcome (no-cues: "abandons", "will not happen", "deadline passes
 * without", ...; yes-cues: "confirms", "it's official", "goes ahead"); mark the newest one's outcome
 * citing it.
 */
export function* newsCueSteps(now: number, st: NewsCueState): StepScript {
  const questions: z.infer<typeof QuestionsAnswer>["questions"] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const r = yield { tool: LIST_QUESTIONS_TOOL, args: offset === 0 ? {} : { offset } };
    if (!r.ok) return;
    const page = QuestionsAnswer.parse(r.value);
    questions.push(...page.questions);
    offset = page.next_offset;
  }
  const m = yield { tool: GET_MARKS_TOOL, args: {} };
  if (!m.ok) return;
  const marked = new Set(MarksAnswer.parse(m.value).marks.map((x) => x.question_id));
  for (const q of questions) {
    if (marked.has(q.id) || !q.outcomes.includes("Yes") || !q.outcomes.includes("No")) continue;
    const from = st.lastSearch.get(q.id) ?? now - NEWS_CUE.firstLookbackMs;
    if (from >= now) continue;
    const terms = questionTerms(q.question);
    if (terms.length === 0) continue;
    const s = yield {
      tool: SEARCH_NEWS_TOOL,
      args: { q: `(${CUE_QUERY}) AND (${anyOf(terms)})`, date_from: isoInstant(from) },
    };
    st.lastSearch.set(q.id, now);
    if (!s.ok) continue;
    const decisive = SearchAnswer.parse(s.value)
      .hits.flatMap((h) => {
        const o = subjectHits(h.title, terms) >= NEWS_CUE.minTermHits ? headlineOutcome(h.title) : null;
        return o ? [{ ...h, o, t: Date.parse(h.published_at) }] : [];
      })
      .sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
    const pick = decisive[0];
    if (pick) yield { tool: MARK_OUTCOME_TOOL, args: { question_id: q.id, outcome: pick.o, news_id: pick.id } };
  }
}

/** The first instant strictly after `now` on the `everyHours` grid. */
export function nextEveryHours(now: number, everyHours: number): number {
  const step = everyHours * HOUR_MS;
  return (Math.floor(now / step) + 1) * step;
}

export const newsCuePolicy: ReferencePolicy = {
  name: "news-cue",
  description:
    "Every 3 hours: per unmarked question, searches the news since its last search for decisive cue words with the " +
    "question's words and marks the outcome the newest matching headline announces.",
  start(api) {
    const st = newsCueState();
    return {
      act: () => runSteps(api, newsCueSteps(api.now(), st)),
      nextWake: (now) => nextEveryHours(now, NEWS_CUE.everyHours),
    };
  },
  cron: [`0 */${NEWS_CUE.everyHours} * * *`],
};

export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never marks (the floor: tc_f1 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/** Wake grid of the truth-reading policies: the synthetic price grid (t_det lies on it). */
export const GRID_MS = 10 * MINUTE_MS;
const nextGrid = (now: number) => (Math.floor(now / GRID_MS) + 1) * GRID_MS;

interface PlannedMark {
  question: string;
  at: number;
  outcome: string;
}

type Planner = (truth: TruthStore, world: WorldStore, params: unknown) => PlannedMark[];

/** A truth-reading policy that marks per a plan, waking on the 10-minute grid (tests and calibration only). */
function plannedPolicy(name: string, description: string, planner: Planner): ReferencePolicy {
  return {
    name,
    description,
    oracle: true,
    start(api, oracle) {
      const env = requireOracle(name, oracle);
      let plan: PlannedMark[] | null = null;
      const done = new Set<string>();
      return {
        async act() {
          plan ??= planner(env.truth, env.world, env.params).sort(
            (x, y) => x.at - y.at || (x.question < y.question ? -1 : 1),
          );
          const now = api.now();
          for (const m of plan) {
            if (m.at > now) break;
            if (done.has(m.question)) continue;
            done.add(m.question);
            await api.call(MARK_OUTCOME_TOOL, { question_id: m.question, outcome: m.outcome });
          }
        },
        nextWake: nextGrid,
      };
    },
    cron: ["*/10 * * * *"],
  };
}

/** Marks every determined question `delayMs` after its t_det with the determined outcome. */
export function tDetPlanner(delayMs: number): Planner {
  return (truth, world, params) =>
    new ResolutionTruth(truth, world, ResolutionDetectParams.parse(params ?? {})).questions.flatMap((q) =>
      q.t_det !== null && q.det_outcome !== null
        ? [{ question: q.id, at: q.t_det + delayMs, outcome: q.det_outcome }]
        : [],
    );
}

/**
 * Marks each question at the first price point (from the untouched world, at its own time t, not
 * delayed) where an outcome's price is at least 0.99, with that outcome.
 */
export const priceCrossPlanner: Planner = (_truth, world, params) => {
  const p = ResolutionDetectParams.parse(params ?? {});
  const rows = world.db
    .prepare("SELECT market, outcome, t, p FROM market_price WHERE p >= 0.99 ORDER BY market, t, outcome")
    .all() as { market: string; outcome: string; t: number; p: number }[];
  const first = new Map<string, PlannedMark>();
  for (const r of rows)
    if (isQuestion(r.market, p) && !first.has(r.market))
      first.set(r.market, { question: r.market, at: r.t, outcome: r.outcome });
  return [...first.values()];
};

export const oraclePolicy = plannedPolicy(
  "oracle",
  "Reads truth: marks every determined question at its t_det with the determined outcome (the ceiling, 1.0).",
  tDetPlanner(0),
);
export const syncer6hPolicy = plannedPolicy(
  "syncer-6h",
  "Reads truth: marks every determined question exactly 6 h after its t_det (anchor exp(−1/8)).",
  tDetPlanner(6 * HOUR_MS),
);
export const syncer24hPolicy = plannedPolicy(
  "syncer-24h",
  "Reads truth: marks every determined question exactly 24 h after its t_det (anchor exp(−1/2)).",
  tDetPlanner(24 * HOUR_MS),
);
export const priceCrossPolicy = plannedPolicy(
  "price-cross-0.99",
  "Reads the undelayed prices from the scorer side: marks a question when an outcome's price first reaches 0.99.",
  priceCrossPlanner,
);

export const resolutionDetectPolicies: ReferencePolicy[] = [
  silentPolicy,
  newsCuePolicy,
  oraclePolicy,
  syncer6hPolicy,
  syncer24hPolicy,
  priceCrossPolicy,
];
