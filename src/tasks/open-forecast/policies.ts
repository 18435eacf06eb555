import { z } from "zod";
import { nextUtcMidnight } from "../../common/time.js";
import { contentTokens } from "../../world/fts-text.js";
import { oracleStatelessPolicy, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import { SUBMIT_FORECASTS_TOOL } from "./forecast-args.js";
import { SEARCH_NEWS_TOOL } from "./news-tools.js";
import { LIST_QUESTIONS_TOOL } from "./question-tools.js";

/** One tool call of a policy, and what it returned (the policies are generators over these). */
export interface Step {
  tool: string;
  args: unknown;
}
export type StepResult = { ok: true; value: unknown } | { ok: false; error: string };
/** A policy's wake as a generator: yields tool calls, receives their results. Shared by the
 * scripted policies (driven through PolicyApi) and the LLM-run test responder (driven by replies). */
export type PolicySteps = Generator<Step, void, StepResult>;

/** Runs a step generator through the policy API. */
export async function drive(api: PolicyApi, steps: PolicySteps): Promise<void> {
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
  your_forecast: z.record(z.string(), z.number()).nullable(),
});
type Listed = z.infer<typeof Listed>;
const Page = z.object({ next_offset: z.number().int().nullable(), questions: z.array(Listed) });
const SearchResult = z.object({
  results: z.array(z.object({ title: z.string(), snippet: z.string() })),
});

/** Every question of a status, page by page (list_questions is free). */
function* listAll(status: "open" | "resolved"): Generator<Step, Listed[], StepResult> {
  const out: Listed[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const r: StepResult = yield { tool: LIST_QUESTIONS_TOOL, args: { status, offset } };
    if (!r.ok) throw new Error(`list_questions failed: ${r.error}`);
    const page = Page.parse(r.value);
    out.push(...page.questions);
    offset = page.next_offset;
  }
  return out;
}

const round3 = (p: number) => Math.round(p * 1000) / 1000;
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
/** resubmit only when the new probability moved at least this much */
const MIN_MOVE = 0.02;

/**
 * A question's family for base rates, from agent-visible text only: the source segment of a
 * ForecastBench id (`<due>:<source>:<id>:<date>`), otherwise the first four all-lowercase words of
 * the title (template words, not names or numbers).
 */
export function questionFamily(q: { id: string; title: string }): string {
  const parts = q.id.split(":");
  if (parts.length >= 4 && parts[1]) return `source:${parts[1]}`;
  const words = q.title.split(/\s+/).filter((w) => /^[a-z]+$/.test(w));
  return `title:${words.slice(0, 4).join(" ")}`;
}

/** Yes-rates by family, smoothed toward the global rate (Laplace prior 1/2 for the global rate). */
export function baseRates(resolved: readonly { id: string; title: string; answer_type: string; answer?: string }[]) {
  let yes = 0;
  let n = 0;
  const fam = new Map<string, { yes: number; n: number }>();
  for (const q of resolved) {
    if (q.answer_type !== "binary" || q.answer === undefined) continue;
    const y = q.answer.trim().toLowerCase() === "yes" ? 1 : 0;
    yes += y;
    n++;
    const f = fam.get(questionFamily(q)) ?? { yes: 0, n: 0 };
    f.yes += y;
    f.n++;
    fam.set(questionFamily(q), f);
  }
  const global = (yes + 1) / (n + 2);
  return (q: { id: string; title: string }) => {
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
  "approved",
];
const STRONG_NO = [
  "abandon",
  "will not happen",
  "passes without",
  "rules out",
  "off the table",
  "unlikely",
  "collapses",
  "denies",
];
const WEAK_YES = ["closer", "support", "breakthrough", "momentum", "obstacle", "cleared", "could follow", "surge"];
const WEAK_NO = ["stall", "delays", "setback", "doubt", "withdraws", "pessimistic", "fade", "not yet", "blow to"];
const count = (text: string, cues: readonly string[]) => cues.reduce((s, c) => s + (text.includes(c) ? 1 : 0), 0);

/** Log-odds shift from cue words in search results (titles and snippets). */
export function newsShift(texts: readonly string[]): number {
  let shift = 0;
  for (const t of texts) {
    const s = t.toLowerCase();
    shift += 1.5 * (count(s, STRONG_YES) - count(s, STRONG_NO)) + 0.4 * (count(s, WEAK_YES) - count(s, WEAK_NO));
  }
  return clamp(shift, -4, 4);
}

const GENERIC = new Set(
  "will market probability above below report revenue billion million fiscal year quarter january february march april may june july august september october november december utc".split(
    " ",
  ),
);

/** Search words for a question: its title's content words minus numbers and template words, at most 5. */
export function searchQuery(title: string): string {
  const words: string[] = [];
  for (const w of contentTokens(title)) {
    if (/\d/.test(w) || GENERIC.has(w) || words.includes(w)) continue;
    words.push(w);
    if (words.length === 5) break;
  }
  return words.join(" ");
}

/**
 * The honest heuristic (`base-rate-news`), one wake: list the resolved questions (public answers)
 * to learn Yes-rates by family; for every open binary question take the crowd forecast where the
 * world shows one, else the family's base rate, shifted by cue words in the top news hits for the
 * question's key words (when the episode has news); submit {Yes: p, No: 1 − p} when there is no
 * standing forecast or p moved by ≥ 0.02.
 */
export function* baseRateNewsSteps(): PolicySteps {
  const resolved = yield* listAll("resolved");
  const rate = baseRates(resolved);
  const open = yield* listAll("open");
  let news = true;
  for (const q of open) {
    if (q.answer_type !== "binary") continue;
    let p = q.crowd?.p_yes ?? rate(q);
    if (q.crowd === undefined && news) {
      const query = searchQuery(q.title);
      if (query !== "") {
        // evidence since the question opened: older coverage is what its base rate already reflects
        const r: StepResult = yield { tool: SEARCH_NEWS_TOOL, args: { query, from_date: q.open.slice(0, 10) } };
        if (!r.ok && r.error.startsWith("unknown tool")) news = false;
        else if (r.ok) {
          const hits = SearchResult.parse(r.value).results;
          p = sigmoid(logit(clamp(p, 0.03, 0.97)) + newsShift(hits.map((h) => `${h.title} ${h.snippet}`)));
        }
      }
    }
    p = round3(clamp(p, 0.03, 0.97));
    const cur = q.your_forecast?.Yes;
    if (cur !== undefined && Math.abs(cur - p) < MIN_MOVE) continue;
    yield { tool: SUBMIT_FORECASTS_TOOL, args: { question_id: q.id, outcomes: { Yes: p, No: round3(1 - p) } } };
  }
}

/** `crowd`, one wake: submit the crowd forecast of every open question that shows one (once). */
export function* crowdSteps(): PolicySteps {
  for (const q of yield* listAll("open")) {
    if (q.crowd === undefined || q.your_forecast !== null) continue;
    const p = q.crowd.p_yes;
    yield {
      tool: SUBMIT_FORECASTS_TOOL,
      args: { question_id: q.id, outcomes: { Yes: p, No: Number((1 - p).toFixed(12)) } },
    };
  }
}

/** Daily at 00:00 UTC, when resolutions and new questions of the day are public. */
const daily = (now: number) => nextUtcMidnight(now);

export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never forecasts (the floor: every question scores 0 each day, tw_score 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

export const baseRateNewsPolicy: ReferencePolicy = statelessPolicy({
  name: "base-rate-news",
  description:
    "Daily at 00:00 UTC: crowd forecast where shown, else the Yes-rate of resolved questions of the same family, " +
    "shifted by cue words in the top news hits; submits {Yes, No} when it changed by ≥ 0.02.",
  act: (api) => drive(api, baseRateNewsSteps()),
  nextWake: daily,
  cron: [],
});

export const crowdPolicy: ReferencePolicy = statelessPolicy({
  name: "crowd",
  description:
    "The baseline forecaster of market questions: submits the crowd probability shown with a question (ForecastBench: the market value at the set's freeze date); nothing elsewhere.",
  act: (api) => drive(api, crowdSteps()),
  nextWake: daily,
  cron: [],
});

/** Oracle (tests and calibration only): puts probability 1 on the true answer of every open question. */
export const oraclePolicy: ReferencePolicy = oracleStatelessPolicy({
  name: "oracle",
  description: "Reads the truth: each day, submits {answer: 1} for every open question (every scored day scores 1).",
  async act(api, env) {
    const answers = new Map(env.truth.answers().map((a) => [a.question, a.answer]));
    const steps = function* (): PolicySteps {
      for (const q of yield* listAll("open")) {
        const a = answers.get(q.id);
        if (a === undefined || (q.your_forecast !== null && q.your_forecast[a] === 1)) continue;
        yield { tool: SUBMIT_FORECASTS_TOOL, args: { question_id: q.id, outcomes: { [a]: 1 } } };
      }
    };
    await drive(api, steps());
  },
  nextWake: daily,
  cron: [],
});

export const openForecastPolicies: ReferencePolicy[] = [silentPolicy, oraclePolicy, baseRateNewsPolicy, crowdPolicy];
