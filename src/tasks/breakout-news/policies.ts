import { z } from "zod";
import { HOUR_MS, isoInstant, MINUTE_MS } from "../../common/time.js";
import type { TruthStore } from "../../world/truth-store.js";
import type { WorldStore } from "../../world/world-store.js";
import { anyOf, questionTerms, termHits } from "../headline-match.js";
import { SEARCH_NEWS_TOOL } from "../news-tools.js";
import { runSteps, type StepScript } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { ReferencePolicy } from "../task.js";
import { BreakoutTruth } from "./breakout-truth.js";
import { BreakoutNewsParams } from "./params.js";
import { GET_MARKETS_TOOL, GET_PRICES_TOOL, NOTIFY_TOOL } from "./tools.js";

/** The parts of the tools' answers the heuristic reads (validated: a policy trusts no shape blindly). */
const MarketsAnswer = z.object({
  visible_until: z.string(),
  markets: z.array(z.object({ id: z.string(), question: z.string(), pending_claim: z.unknown() })),
});
const SearchAnswer = z.object({
  hits: z.array(z.object({ id: z.string(), title: z.string(), published_at: z.string() })),
});
const PricesAnswer = z.object({
  series: z.array(
    z.object({
      outcome: z.string(),
      level_at_start: z.number().nullable(),
      changes: z.array(z.object({ t: z.string(), p: z.number() })),
    }),
  ),
});

/** Headline cues of a coming move of the first outcome's price (generic English, matched on word boundaries). */
export const UP_CUES =
  /\b(signals? support|support for|moves? closer|momentum|breakthrough|removed|preparing|cleared|progress|boost)\b/i;
export const DOWN_CUES =
  /\b(rules? out|stall(s|ed)?|delays?|setback|objections?|doubt|off the table|withdraws?|blow|collapses?)\b/i;

/** The heuristic's fixed settings (documented in the README). */
export const NEWS_BURST = {
  /** wakes at this minute of every hour */
  minute: 5,
  /** first search of a market looks back this far */
  firstLookbackMs: 12 * HOUR_MS,
  /** never looks back further than this */
  maxLookbackMs: 12 * HOUR_MS,
  /** a headline must mention at least this many distinct question terms */
  minTermHits: 2,
  /** skip when the first-outcome price already moved this much in the cue's direction since the article */
  alreadyMoved: 0.08,
} as const;

export interface NewsBurstState {
  /** per market: the instant of the last search (the next search starts there) */
  lastSearch: Map<string, number>;
}

export const newsBurstState = (): NewsBurstState => ({ lastSearch: new Map() });

/** Question terms a headline mentions outside its cue words (a cue word is no subject match). */
export function subjectHits(title: string, terms: readonly string[]): number {
  return termHits(
    title.replace(new RegExp(UP_CUES.source, "gi"), " ").replace(new RegExp(DOWN_CUES.source, "gi"), " "),
    terms,
  );
}

/** The direction a headline's cue words point to, or null. */
export function headlineDirection(title: string): "up" | "down" | null {
  const up = UP_CUES.test(title);
  const down = DOWN_CUES.test(title);
  return up === down ? null : up ? "up" : "down";
}

/**
 * One wake of the `news-burst` heuristic (visible tools only). For every monitored market without a
 * pending claim: search the news published since the last search for the question's distinctive
 * words; keep headlines that mention at least two of them and carry a directional cue word; take
 * the majority direction (ties: the newest headline's); skip when the visible price already moved
 * `alreadyMoved` in that direction since the newest such article (the move is under way, the news
 * is stale); otherwise notify citing that article.
 */
export function* newsBurstSteps(now: number, st: NewsBurstState): StepScript {
  const r = yield { tool: GET_MARKETS_TOOL, args: {} };
  if (!r.ok) return;
  const answer = MarketsAnswer.parse(r.value);
  for (const m of answer.markets) {
    const last = st.lastSearch.get(m.id);
    if (m.pending_claim !== null) {
      st.lastSearch.set(m.id, now);
      continue;
    }
    const from = Math.max(last ?? now - NEWS_BURST.firstLookbackMs, now - NEWS_BURST.maxLookbackMs);
    if (from >= now) continue;
    const terms = questionTerms(m.question);
    if (terms.length === 0) continue;
    const s = yield { tool: SEARCH_NEWS_TOOL, args: { q: anyOf(terms), date_from: isoInstant(from) } };
    st.lastSearch.set(m.id, now);
    if (!s.ok) continue;
    const cued = SearchAnswer.parse(s.value)
      .hits.flatMap((h) => {
        const d = subjectHits(h.title, terms) >= NEWS_BURST.minTermHits ? headlineDirection(h.title) : null;
        return d ? [{ ...h, d, t: Date.parse(h.published_at) }] : [];
      })
      .sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
    if (cued.length === 0) continue;
    const ups = cued.filter((h) => h.d === "up").length;
    const downs = cued.length - ups;
    const dir = ups > downs ? "up" : downs > ups ? "down" : cued[0]!.d;
    const pick = cued.find((h) => h.d === dir)!;
    // prices are visible up to visible_until: an article newer than that is compared from there
    const start = Math.min(pick.t, Date.parse(answer.visible_until));
    const pr = yield {
      tool: GET_PRICES_TOOL,
      args: { market_id: m.id, start: isoInstant(start), end: isoInstant(now) },
    };
    if (pr.ok) {
      const first = PricesAnswer.parse(pr.value).series[0];
      if (first && first.level_at_start !== null) {
        const latest = first.changes.at(-1)?.p ?? first.level_at_start;
        const moved = (dir === "up" ? 1 : -1) * (latest - first.level_at_start);
        if (moved >= NEWS_BURST.alreadyMoved) continue;
      }
    }
    yield { tool: NOTIFY_TOOL, args: { market_id: m.id, news_id: pick.id, direction: dir } };
  }
}

/** The first instant strictly after `now` at minute `minute` of an hour. */
export function nextHourlyAt(now: number, minute: number): number {
  const base = Math.floor(now / HOUR_MS) * HOUR_MS + minute * MINUTE_MS;
  return base > now ? base : base + HOUR_MS;
}

export const newsBurstPolicy: ReferencePolicy = {
  name: "news-burst",
  description:
    "Hourly at :05: per market, searches the news since its last search for the question's words, keeps headlines " +
    "with directional cue words, checks the visible price has not already moved, and notifies.",
  start(api) {
    const st = newsBurstState();
    return {
      act: () => runSteps(api, newsBurstSteps(api.now(), st)),
      nextWake: (now) => nextHourlyAt(now, NEWS_BURST.minute),
    };
  },
  cron: [`${NEWS_BURST.minute} * * * *`],
};

export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never notifies (the floor: cov_f1 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/** The oracle's wake grid: the synthetic price grid. */
export const ORACLE_GRID_MS = 10 * MINUTE_MS;
export const nextGrid = (now: number) => (Math.floor(now / ORACLE_GRID_MS) + 1) * ORACLE_GRID_MS;
const ceilGrid = (t: number) => Math.ceil(t / ORACLE_GRID_MS) * ORACLE_GRID_MS;

interface OracleClaim {
  key: string;
  market: string;
  at: number;
  until: number;
  news_id: string;
  direction: "up" | "down";
}

/**
 * The oracle's plan from truth: for each breakpoint of a monitored market, a claim at the first grid
 * instant at or after its earliest gold article became visible, citing it; a breakpoint without gold
 * articles gets a claim one grid step before it starts, citing the latest article visible then.
 */
export function oraclePlan(truth: TruthStore, world: WorldStore, params: unknown): OracleClaim[] {
  const p = BreakoutNewsParams.parse(params ?? {});
  const t = new BreakoutTruth(truth, world, p);
  const latest = world.db.prepare(
    "SELECT id FROM news WHERE visible_at <= ? ORDER BY visible_at DESC, id DESC LIMIT 1",
  );
  const plan: OracleClaim[] = [];
  for (const b of t.breakpoints) {
    const gold = b.gold.flatMap((g) => g.articles).sort((x, y) => x.published_at - y.published_at);
    const first = gold[0];
    if (first) {
      const at = ceilGrid(t.news(first.news_id)!.visible_at);
      if (at < b.t_start)
        plan.push({
          key: b.id,
          market: b.market,
          at,
          until: b.t_start,
          news_id: first.news_id,
          direction: b.direction,
        });
      continue;
    }
    const at = ceilGrid(b.t_start) - ORACLE_GRID_MS;
    const n = latest.get(at) as { id: string } | undefined;
    if (n) plan.push({ key: b.id, market: b.market, at, until: b.t_start, news_id: n.id, direction: b.direction });
  }
  return plan.sort((x, y) => x.at - y.at || (x.key < y.key ? -1 : 1));
}

/** Oracle (tests and calibration only): acts on the plan above, waking on the 10-minute grid. */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  description:
    "Reads truth: claims each breakpoint at the first 10-minute grid instant after its earliest gold article, citing " +
    "it (breakpoints without gold articles: 10 minutes before they start).",
  oracle: true,
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    let plan: OracleClaim[] | null = null;
    const done = new Set<string>();
    return {
      async act() {
        plan ??= oraclePlan(env.truth, env.world, env.params);
        const now = api.now();
        for (const c of plan) {
          if (c.at > now) break;
          if (done.has(c.key) || now >= c.until) continue;
          done.add(c.key);
          await api.call(NOTIFY_TOOL, { market_id: c.market, news_id: c.news_id, direction: c.direction });
        }
      },
      nextWake: nextGrid,
    };
  },
  cron: ["*/10 * * * *"],
};

export const breakoutNewsPolicies: ReferencePolicy[] = [silentPolicy, newsBurstPolicy, oraclePolicy];
