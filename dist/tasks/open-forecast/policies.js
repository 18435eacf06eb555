import { z } from "zod";
import { nextUtcMidnight } from "../../kernel/day.js";
import { contentTokens } from "../../world/fts-text.js";
import { oracleStatelessPolicy, statelessPolicy } from "../reference-policy.js";
import { SUBMIT_FORECASTS_TOOL } from "./forecast-args.js";
import { SEARCH_NEWS_TOOL } from "./news-tools.js";
import { LIST_QUESTIONS_TOOL } from "./question-tools.js";
async function drive(api, steps) {
  let r = steps.next();
  while (!r.done) {
    const res = await api.call(r.value.tool, r.value.args);
    r = steps.next(res);
  }
}
const Listed = z.object({
  id: z.string(),
  title: z.string(),
  open: z.string(),
  answer_type: z.string(),
  crowd: z.object({ p_yes: z.number() }).optional(),
  answer: z.string().optional(),
  your_forecast: z.record(z.string(), z.number()).nullable()
});
const Page = z.object({ next_offset: z.number().int().nullable(), questions: z.array(Listed) });
const SearchResult = z.object({
  results: z.array(z.object({ title: z.string(), snippet: z.string() }))
});
function* listAll(status) {
  const out = [];
  let offset = 0;
  while (offset !== null) {
    const r = yield { tool: LIST_QUESTIONS_TOOL, args: { status, offset } };
    if (!r.ok) throw new Error(`list_questions failed: ${r.error}`);
    const page = Page.parse(r.value);
    out.push(...page.questions);
    offset = page.next_offset;
  }
  return out;
}
const round3 = (p) => Math.round(p * 1e3) / 1e3;
const logit = (p) => Math.log(p / (1 - p));
const sigmoid = (x) => 1 / (1 + Math.exp(-x));
const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
const MIN_MOVE = 0.02;
function questionFamily(q) {
  const parts = q.id.split(":");
  if (parts.length >= 4 && parts[1]) return `source:${parts[1]}`;
  const words = q.title.split(/\s+/).filter((w) => /^[a-z]+$/.test(w));
  return `title:${words.slice(0, 4).join(" ")}`;
}
function baseRates(resolved) {
  let yes = 0;
  let n = 0;
  const fam = /* @__PURE__ */ new Map();
  for (const q of resolved) {
    if (q.answer_type !== "binary" || q.answer === void 0) continue;
    const y = q.answer.trim().toLowerCase() === "yes" ? 1 : 0;
    yes += y;
    n++;
    const f = fam.get(questionFamily(q)) ?? { yes: 0, n: 0 };
    f.yes += y;
    f.n++;
    fam.set(questionFamily(q), f);
  }
  const global = (yes + 1) / (n + 2);
  return (q) => {
    const f = fam.get(questionFamily(q));
    return f ? (f.yes + 2 * global) / (f.n + 2) : global;
  };
}
const STRONG_YES = [
  "confirms",
  "it's official",
  "goes ahead",
  "finalising",
  "finalizing",
  "set to confirm",
  "signed",
  "approved"
];
const STRONG_NO = [
  "abandon",
  "will not happen",
  "passes without",
  "rules out",
  "off the table",
  "unlikely",
  "collapses",
  "denies"
];
const WEAK_YES = ["closer", "support", "breakthrough", "momentum", "obstacle", "cleared", "could follow", "surge"];
const WEAK_NO = ["stall", "delays", "setback", "doubt", "withdraws", "pessimistic", "fade", "not yet", "blow to"];
const count = (text, cues) => cues.reduce((s, c) => s + (text.includes(c) ? 1 : 0), 0);
function newsShift(texts) {
  let shift = 0;
  for (const t of texts) {
    const s = t.toLowerCase();
    shift += 1.5 * (count(s, STRONG_YES) - count(s, STRONG_NO)) + 0.4 * (count(s, WEAK_YES) - count(s, WEAK_NO));
  }
  return clamp(shift, -4, 4);
}
const GENERIC = new Set(
  "will market probability above below report revenue billion million fiscal year quarter january february march april may june july august september october november december utc".split(
    " "
  )
);
function searchQuery(title) {
  const words = [];
  for (const w of contentTokens(title)) {
    if (/\d/.test(w) || GENERIC.has(w) || words.includes(w)) continue;
    words.push(w);
    if (words.length === 5) break;
  }
  return words.join(" ");
}
function* baseRateNewsSteps() {
  const resolved = yield* listAll("resolved");
  const rate = baseRates(resolved);
  const open = yield* listAll("open");
  let news = true;
  for (const q of open) {
    if (q.answer_type !== "binary") continue;
    let p = q.crowd?.p_yes ?? rate(q);
    if (q.crowd === void 0 && news) {
      const query = searchQuery(q.title);
      if (query !== "") {
        const r = yield { tool: SEARCH_NEWS_TOOL, args: { query, from_date: q.open.slice(0, 10) } };
        if (!r.ok && r.error.startsWith("unknown tool")) news = false;
        else if (r.ok) {
          const hits = SearchResult.parse(r.value).results;
          p = sigmoid(logit(clamp(p, 0.03, 0.97)) + newsShift(hits.map((h) => `${h.title} ${h.snippet}`)));
        }
      }
    }
    p = round3(clamp(p, 0.03, 0.97));
    const cur = q.your_forecast?.Yes;
    if (cur !== void 0 && Math.abs(cur - p) < MIN_MOVE) continue;
    yield { tool: SUBMIT_FORECASTS_TOOL, args: { question_id: q.id, outcomes: { Yes: p, No: round3(1 - p) } } };
  }
}
function* crowdSteps() {
  for (const q of yield* listAll("open")) {
    if (q.crowd === void 0 || q.your_forecast !== null) continue;
    const p = q.crowd.p_yes;
    yield {
      tool: SUBMIT_FORECASTS_TOOL,
      args: { question_id: q.id, outcomes: { Yes: p, No: Number((1 - p).toFixed(12)) } }
    };
  }
}
const daily = (now) => nextUtcMidnight(now);
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never forecasts (the floor: every question scores 0 each day, tw_score 0).",
  async act() {
  },
  nextWake: () => null,
  cron: []
});
const baseRateNewsPolicy = statelessPolicy({
  name: "base-rate-news",
  description: "Daily at 00:00 UTC: crowd forecast where shown, else the Yes-rate of resolved questions of the same family, shifted by cue words in the top news hits; submits {Yes, No} when it changed by \u2265 0.02.",
  act: (api) => drive(api, baseRateNewsSteps()),
  nextWake: daily,
  cron: []
});
const crowdPolicy = statelessPolicy({
  name: "crowd",
  description: "The baseline forecaster of market questions: submits the crowd probability shown with a question (ForecastBench: the market value at the set's freeze date); nothing elsewhere.",
  act: (api) => drive(api, crowdSteps()),
  nextWake: daily,
  cron: []
});
const oraclePolicy = oracleStatelessPolicy({
  name: "oracle",
  description: "Reads the truth: each day, submits {answer: 1} for every open question (every scored day scores 1).",
  async act(api, env) {
    const answers = new Map(env.truth.answers().map((a) => [a.question, a.answer]));
    const steps = function* () {
      for (const q of yield* listAll("open")) {
        const a = answers.get(q.id);
        if (a === void 0 || q.your_forecast !== null && q.your_forecast[a] === 1) continue;
        yield { tool: SUBMIT_FORECASTS_TOOL, args: { question_id: q.id, outcomes: { [a]: 1 } } };
      }
    };
    await drive(api, steps());
  },
  nextWake: daily,
  cron: []
});
const openForecastPolicies = [silentPolicy, oraclePolicy, baseRateNewsPolicy, crowdPolicy];
export {
  baseRateNewsPolicy,
  baseRateNewsSteps,
  baseRates,
  crowdPolicy,
  crowdSteps,
  drive,
  newsShift,
  openForecastPolicies,
  oraclePolicy,
  questionFamily,
  searchQuery,
  silentPolicy
};
//# sourceMappingURL=policies.js.map
