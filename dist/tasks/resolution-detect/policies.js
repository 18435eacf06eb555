import { z } from "zod";
import { HOUR_MS, isoInstant, MINUTE_MS } from "../../kernel/day.js";
import { anyOf, questionTerms, termHits } from "../headline-match.js";
import { SEARCH_NEWS_TOOL } from "../news-tools.js";
import { runSteps } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import { isQuestion, ResolutionDetectParams } from "./params.js";
import { ResolutionTruth } from "./question-truth.js";
import { GET_MARKS_TOOL, LIST_QUESTIONS_TOOL, MARK_OUTCOME_TOOL } from "./tools.js";
const QuestionsAnswer = z.object({
  questions: z.array(z.object({ id: z.string(), question: z.string(), outcomes: z.array(z.string()) })),
  next_offset: z.number().nullable()
});
const MarksAnswer = z.object({ marks: z.array(z.object({ question_id: z.string() })) });
const SearchAnswer = z.object({
  hits: z.array(z.object({ id: z.string(), title: z.string(), published_at: z.string() }))
});
const NO_CUES = /\b(abandons|will not happen|deadline passes without|formally rejects|is cancelled)\b/i;
const YES_CUES = /\b(confirms|it's official|goes ahead)\b/i;
const CUE_QUERY = 'confirms OR official OR "goes ahead" OR abandons OR happen OR "deadline passes" OR rejects';
const NEWS_CUE = {
  /** wakes every this many hours, on the hour (UTC) */
  everyHours: 3,
  /** the first search of a question looks back this far */
  firstLookbackMs: 48 * HOUR_MS,
  /** a headline must mention at least this many distinct question terms */
  minTermHits: 2
};
function subjectHits(title, terms) {
  return termHits(
    title.replace(new RegExp(NO_CUES.source, "gi"), " ").replace(new RegExp(YES_CUES.source, "gi"), " "),
    terms
  );
}
function headlineOutcome(title) {
  if (NO_CUES.test(title)) return "No";
  if (YES_CUES.test(title)) return "Yes";
  return null;
}
const newsCueState = () => ({ lastSearch: /* @__PURE__ */ new Map() });
function* newsCueSteps(now, st) {
  const questions = [];
  let offset = 0;
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
      args: { q: `(${CUE_QUERY}) AND (${anyOf(terms)})`, date_from: isoInstant(from) }
    };
    st.lastSearch.set(q.id, now);
    if (!s.ok) continue;
    const decisive = SearchAnswer.parse(s.value).hits.flatMap((h) => {
      const o = subjectHits(h.title, terms) >= NEWS_CUE.minTermHits ? headlineOutcome(h.title) : null;
      return o ? [{ ...h, o, t: Date.parse(h.published_at) }] : [];
    }).sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
    const pick = decisive[0];
    if (pick) yield { tool: MARK_OUTCOME_TOOL, args: { question_id: q.id, outcome: pick.o, news_id: pick.id } };
  }
}
function nextEveryHours(now, everyHours) {
  const step = everyHours * HOUR_MS;
  return (Math.floor(now / step) + 1) * step;
}
const newsCuePolicy = {
  name: "news-cue",
  description: "Every 3 hours: per unmarked question, searches the news since its last search for decisive cue words with the question's words and marks the outcome the newest matching headline announces.",
  start(api) {
    const st = newsCueState();
    return {
      act: () => runSteps(api, newsCueSteps(api.now(), st)),
      nextWake: (now) => nextEveryHours(now, NEWS_CUE.everyHours)
    };
  },
  cron: [`0 */${NEWS_CUE.everyHours} * * *`]
};
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never marks (the floor: tc_f1 0).",
  async act() {
  },
  nextWake: () => null,
  cron: []
});
const GRID_MS = 10 * MINUTE_MS;
const nextGrid = (now) => (Math.floor(now / GRID_MS) + 1) * GRID_MS;
function plannedPolicy(name, description, planner) {
  return {
    name,
    description,
    oracle: true,
    start(api, oracle) {
      const env = requireOracle(name, oracle);
      let plan = null;
      const done = /* @__PURE__ */ new Set();
      return {
        async act() {
          plan ??= planner(env.truth, env.world, env.params).sort(
            (x, y) => x.at - y.at || (x.question < y.question ? -1 : 1)
          );
          const now = api.now();
          for (const m of plan) {
            if (m.at > now) break;
            if (done.has(m.question)) continue;
            done.add(m.question);
            await api.call(MARK_OUTCOME_TOOL, { question_id: m.question, outcome: m.outcome });
          }
        },
        nextWake: nextGrid
      };
    },
    cron: ["*/10 * * * *"]
  };
}
function tDetPlanner(delayMs) {
  return (truth, world, params) => new ResolutionTruth(truth, world, ResolutionDetectParams.parse(params ?? {})).questions.flatMap(
    (q) => q.t_det !== null && q.det_outcome !== null ? [{ question: q.id, at: q.t_det + delayMs, outcome: q.det_outcome }] : []
  );
}
const priceCrossPlanner = (_truth, world, params) => {
  const p = ResolutionDetectParams.parse(params ?? {});
  const rows = world.db.prepare("SELECT market, outcome, t, p FROM market_price WHERE p >= 0.99 ORDER BY market, t, outcome").all();
  const first = /* @__PURE__ */ new Map();
  for (const r of rows)
    if (isQuestion(r.market, p) && !first.has(r.market))
      first.set(r.market, { question: r.market, at: r.t, outcome: r.outcome });
  return [...first.values()];
};
const oraclePolicy = plannedPolicy(
  "oracle",
  "Reads truth: marks every determined question at its t_det with the determined outcome (the ceiling, 1.0).",
  tDetPlanner(0)
);
const syncer6hPolicy = plannedPolicy(
  "syncer-6h",
  "Reads truth: marks every determined question exactly 6 h after its t_det (anchor exp(\u22121/8)).",
  tDetPlanner(6 * HOUR_MS)
);
const syncer24hPolicy = plannedPolicy(
  "syncer-24h",
  "Reads truth: marks every determined question exactly 24 h after its t_det (anchor exp(\u22121/2)).",
  tDetPlanner(24 * HOUR_MS)
);
const priceCrossPolicy = plannedPolicy(
  "price-cross-0.99",
  "Reads the undelayed prices from the scorer side: marks a question when an outcome's price first reaches 0.99.",
  priceCrossPlanner
);
const resolutionDetectPolicies = [
  silentPolicy,
  newsCuePolicy,
  oraclePolicy,
  syncer6hPolicy,
  syncer24hPolicy,
  priceCrossPolicy
];
export {
  CUE_QUERY,
  GRID_MS,
  NEWS_CUE,
  NO_CUES,
  YES_CUES,
  headlineOutcome,
  newsCuePolicy,
  newsCueState,
  newsCueSteps,
  nextEveryHours,
  oraclePolicy,
  priceCrossPlanner,
  priceCrossPolicy,
  resolutionDetectPolicies,
  silentPolicy,
  subjectHits,
  syncer24hPolicy,
  syncer6hPolicy,
  tDetPlanner
};
//# sourceMappingURL=policies.js.map
