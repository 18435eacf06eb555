import type { Rng } from "../common/random.js";
import type { RedditCommentRow, RedditPostRow, RedditRevealRow } from "../world/types.js";
import type { FutureStream } from "./future.js";
import type { IdMinter } from "./ids.js";
import { DAY, HOUR } from "./time.js";
import { CITIES, COUNTRIES, FILLER_COMPANIES, fill, SECTORS } from "./vocab.js";

/** Tunable parameters of the Reddit stream (README documents them). */
export const REDDIT_PARAMS = {
  /** mean posts per hour across all subreddits */
  postsPerHour: 80,
  /** diurnal modulation amplitude (rate = mean·(1 + a·cos(2π(h − peak)/24))) */
  diurnalAmplitude: 0.3,
  /** UTC hour of peak posting */
  diurnalPeakHour: 16,
  /**
   * A post's expected comment count is a two-component lognormal mixture: most posts are
   * "quiet" (log-mean/sd below), a minority are "contenders" whose upper part forms the tail.
   */
  contenderShare: 0.12,
  quietLogMean: 0,
  quietLogSd: 0.9,
  contenderLogMean: 3.36,
  contenderLogSd: 0.9,
  /** cap on the expected comment count of a single post */
  popularityCap: 900,
  /** median comment delay (hours) and its per-post log-sd; per-comment delay log-sd */
  medianDelayHours: 1.4,
  postDelayLogSd: 0.35,
  commentDelayLogSd: 1.0,
  /** comments later than this after the post are not generated */
  maxDelayHours: 72,
  /** probability a (non-first) comment replies to the post itself */
  topLevelShare: 0.35,
  /** a post's cascade is revealed this long after posting */
  revealDelayMs: 24 * HOUR,
} as const;

interface Subreddit {
  name: string;
  weight: number;
  /** multiplier on the popularity scale */
  heat: number;
  titles: readonly string[];
}

const SUBREDDITS: readonly Subreddit[] = [
  {
    name: "worldnews",
    weight: 0.24,
    heat: 1.15,
    titles: [
      "{country} announces new {topic} measures after weeks of talks",
      "Protests in {city} over {topic} enter third day",
      "{country} and {country2} agree to resume {topic} negotiations",
      "Officials in {city} warn of {topic} shortages",
      "{person} says {country} will not back down on {topic}",
    ],
  },
  {
    name: "technology",
    weight: 0.2,
    heat: 1.0,
    titles: [
      "{company} unveils {adj} {gadget} aimed at {sector} firms",
      "Why {company}'s new {gadget} matters more than you think",
      "{company} quietly changes its {topic} policy",
      "Engineers at {company} publish details of {adj} {gadget} outage",
      "Regulators in {country} question {company} over {topic}",
    ],
  },
  {
    name: "personalfinance",
    weight: 0.16,
    heat: 0.8,
    titles: [
      "Is it worth refinancing with rates where they are in {country}?",
      "Just paid off my last {debt} - here's what worked",
      "Employer switched our {benefit} provider, what should I check?",
      "How do you budget for {expense} on a single income?",
      "Got a raise, should I prioritise {debt} or the emergency fund?",
    ],
  },
  {
    name: "CryptoCurrency",
    weight: 0.16,
    heat: 1.05,
    titles: [
      "BTC just moved {pct}% in an hour - what happened?",
      "{company} adds stablecoin payments in {country}",
      "Daily reminder: self-custody your {coin}",
      "ETH gas fees dropped to {n} gwei, anyone else notice?",
      "SOL validators report {adj} slowdown",
    ],
  },
  {
    name: "science",
    weight: 0.12,
    heat: 0.95,
    titles: [
      "Researchers in {city} report {adj} result on {field} experiment",
      "New study links {topic} to {field} outcomes",
      "{field} team publishes {adj} dataset from {country}",
      "Long-running {field} survey finds surprising trend",
    ],
  },
  {
    name: "AskAnything",
    weight: 0.12,
    heat: 1.1,
    titles: [
      "What's the most {adj} thing that happened to you in {city}?",
      "People who work in {sector}, what do outsiders get wrong?",
      "What small habit changed your life this year?",
      "What's a {adj} opinion you hold about {topic}?",
    ],
  },
];

const TOPICS = ["energy", "housing", "trade", "water", "transit", "data privacy", "fishing rights", "tariff", "labour"];
const ADJS = ["surprising", "unusual", "bold", "controversial", "quiet", "massive", "tiny", "strange", "promising"];
const GADGETS = ["chip", "assistant", "sensor", "platform", "headset", "battery", "router", "scheduler"];
const FIELDS = ["climate", "neuroscience", "astronomy", "ecology", "materials", "genetics", "oceanography"];
const DEBTS = ["student loan", "car loan", "credit card", "medical bill"];
const BENEFITS = ["401k", "health plan", "pension", "HSA"];
const EXPENSES = ["childcare", "a wedding", "a new roof", "car repairs"];
const COINS = ["BTC", "ETH", "SOL"];

const COMMENT_OPENERS = [
  "Honestly",
  "This",
  "Came here to say this.",
  "Source?",
  "Wild.",
  "Not surprised.",
  "Can confirm,",
  "Hard disagree.",
  "Underrated take:",
  "Lol",
  "Interesting -",
  "As someone in the industry,",
  "Same here,",
  "Wait,",
  "Big if true.",
  "Eh,",
  "Thank you for posting this.",
  "Good point, but",
];
const COMMENT_BODIES = [
  "this has been coming for months.",
  "the numbers don't add up to me.",
  "nobody reads the article anyway.",
  "my cousin works there and says the same.",
  "I'd wait for more details before panicking.",
  "it happened in my city last year too.",
  "the comments here are better than the post.",
  "people said the same thing in 2019.",
  "this is exactly why I stopped following it.",
  "the real story is in the third paragraph.",
  "I think it will blow over in a week.",
  "can someone explain like I'm five?",
  "the timing is suspicious.",
  "it's cheaper than it looks.",
  "that's not how any of this works.",
  "this thread is gold.",
  "do we know who actually decided this?",
  "there's a longer discussion in yesterday's thread.",
  "I'm saving this for later.",
];

/** a deterministic pool of author names */
function authorPool(rng: Rng, n: number): string[] {
  const a = [
    "quiet",
    "brisk",
    "salty",
    "lunar",
    "amber",
    "rusty",
    "velvet",
    "clever",
    "stormy",
    "gentle",
    "odd",
    "bright",
  ];
  const b = ["falcon", "teapot", "otter", "cactus", "harbor", "pixel", "walrus", "maple", "comet", "badger", "lantern"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${rng.pick(a)}_${rng.pick(b)}_${rng.int(10_000)}`);
  return out;
}

function commentPool(rng: Rng, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${rng.pick(COMMENT_OPENERS)} ${rng.pick(COMMENT_BODIES)}`);
  return out;
}

function postTitle(rng: Rng, sub: Subreddit): string {
  return fill(rng.pick(sub.titles), {
    country: rng.pick(COUNTRIES),
    country2: rng.pick(COUNTRIES),
    city: rng.pick(CITIES),
    topic: rng.pick(TOPICS),
    person: `${rng.pick(["Minister", "Senator", "Governor", "Mayor"])} ${rng.pick(["Okafor", "Varga", "Lindqvist", "Reyes"])}`,
    company: rng.pick(FILLER_COMPANIES),
    adj: rng.pick(ADJS),
    gadget: rng.pick(GADGETS),
    sector: rng.pick(SECTORS),
    debt: rng.pick(DEBTS),
    benefit: rng.pick(BENEFITS),
    expense: rng.pick(EXPENSES),
    coin: rng.pick(COINS),
    field: rng.pick(FIELDS),
    pct: String(2 + rng.int(9)),
    n: String(3 + rng.int(30)),
  });
}

export interface RedditStreams {
  posts: RedditPostRow[];
  comments: RedditCommentRow[];
  reveals: RedditRevealRow[];
}

function postRate(t: number): number {
  const p = REDDIT_PARAMS;
  const hour = (t % DAY) / HOUR;
  return p.postsPerHour * (1 + p.diurnalAmplitude * Math.cos((2 * Math.PI * (hour - p.diurnalPeakHour)) / 24));
}

/** one post's comment delays (ms after the post, ascending, each ≥ 1 s): Poisson count around its popularity, lognormal delays */
function drawDelays(cascade: Rng, lambda: number): number[] {
  const p = REDDIT_PARAMS;
  const maxDelay = p.maxDelayHours * HOUR;
  const n = cascade.poisson(lambda);
  const median = p.medianDelayHours * HOUR * Math.exp(p.postDelayLogSd * cascade.normal());
  const delays: number[] = [];
  for (let k = 0; k < n; k++) {
    const d = median * Math.exp(p.commentDelayLogSd * cascade.normal());
    if (d <= maxDelay) delays.push(Math.max(1000, Math.round(d / 1000) * 1000));
  }
  delays.sort((x, y) => x - y);
  return delays;
}

/**
 * Posts created in [from, to) with their full comment trees (comments may extend past `to`)
 * and one reveal row per post at created + 24 h.
 *
 * Prefix stability: posts arrive one after the other from sequential streams, and a post's whole
 * cascade is drawn when it is created, so every draw behind a row visible before T is made before
 * any draw behind a later post. With `future` (cut T): arrivals restart at T from the future stream
 * (the process is memoryless), posts from T on draw from it, and the comments at or after T of an
 * earlier post are replaced by the part after T of a cascade re-drawn from the future stream with
 * the same popularity (Poisson thinning: the count in a later interval is independent of the count
 * before it). The pre-T draws are consumed exactly as without `future`, so the past is unchanged.
 */
export function generateReddit(
  rng: Rng,
  from: number,
  to: number,
  ids: IdMinter,
  future: FutureStream = null,
): RedditStreams {
  const p = REDDIT_PARAMS;
  const authors = authorPool(rng.split("authors"), 4000);
  const bodies = commentPool(rng.split("comment-bodies"), 600);
  let arrivals = rng.split("arrivals");
  let content = rng.split("content");
  let cascade = rng.split("cascade");
  const posts: RedditPostRow[] = [];
  const comments: RedditCommentRow[] = [];
  const reveals: RedditRevealRow[] = [];
  const subWeights = SUBREDDITS.map((s) => s.weight);
  const rateMax = p.postsPerHour * (1 + p.diurnalAmplitude);
  let t = from;
  let switched = future === null;
  for (;;) {
    t += arrivals.exp(rateMax / HOUR);
    if (!switched && future !== null && t >= future.from) {
      // the future starts at T: restart the (memoryless) arrival process there from the future stream
      switched = true;
      t = future.from;
      arrivals = future.rng.split("arrivals");
      content = future.rng.split("content");
      cascade = future.rng.split("cascade");
      continue;
    }
    if (t >= to) break;
    if (!arrivals.chance(postRate(t) / rateMax)) continue;
    const created = Math.floor(t / 1000) * 1000;
    const sub = SUBREDDITS[content.weighted(subWeights)] as Subreddit;
    const title = postTitle(content, sub);
    const body = content.chance(0.45) ? `${content.pick(COMMENT_BODIES)} ${content.pick(COMMENT_BODIES)}` : "";
    const author = content.pick(authors) as string;
    const id = `p${ids.hex("reddit_post", [sub.name, author, title, body, created], 12)}`;
    posts.push({
      id,
      subreddit: sub.name,
      author,
      title,
      body,
      created_utc: created,
      visible_at: created,
    });

    const contender = cascade.chance(p.contenderShare);
    const logLambda = contender
      ? p.contenderLogMean + p.contenderLogSd * cascade.normal()
      : p.quietLogMean + p.quietLogSd * cascade.normal();
    const lambda = Math.min(p.popularityCap, sub.heat * Math.exp(logLambda));
    const delays = drawDelays(cascade, lambda);
    // comment times (strictly increasing) and the tree; each comment's draws in time order
    const first = comments.length;
    let within24 = 0;
    let prev = created;
    const emit = (r: Rng, c: number, k: number) => {
      let parent = id;
      if (k > 0 && !r.chance(p.topLevelShare)) {
        const back = Math.min(k - 1, Math.floor(r.exp(0.25)));
        parent = (comments[first + k - 1 - back] as RedditCommentRow).id;
      }
      const author = authors[r.int(authors.length)] as string;
      const text = bodies[r.int(bodies.length)] as string;
      comments.push({
        id: `c${ids.hex("reddit_comment", [id, parent, c, author, text], 14)}`,
        root: id,
        parent,
        created_utc: c,
        author,
        body: text,
        visible_at: c,
      });
      if (c <= created + p.revealDelayMs) within24++;
    };
    let k = 0;
    const cut = switched || future === null ? Number.POSITIVE_INFINITY : future.from;
    for (; k < delays.length; k++) {
      const c = Math.max(created + (delays[k] as number), prev + 1000);
      if (c >= cut) break;
      prev = c;
      emit(cascade, c, k);
    }
    if (k < delays.length) {
      // the rest of this cascade lies after T: consume its pre-T draws as the ordinary world
      // does, then emit the part after T of a cascade re-drawn from the future stream
      for (let j = k; j < delays.length; j++) {
        if (j > 0 && !cascade.chance(p.topLevelShare)) cascade.exp(0.25);
        cascade.int(authors.length);
        cascade.int(bodies.length);
      }
    }
    if (future !== null && !switched) {
      const tail = future.rng.split(`tail-${id}`);
      const redrawn = drawDelays(tail, lambda);
      for (const d of redrawn) {
        const c = Math.max(created + d, prev + 1000);
        if (created + d < future.from) continue;
        prev = c;
        emit(tail, c, k++);
      }
    }
    reveals.push({ post: id, descendants_24h: within24, visible_at: created + p.revealDelayMs });
  }
  return { posts, comments, reveals };
}
