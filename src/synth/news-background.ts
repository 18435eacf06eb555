import type { Rng } from "../common/random.js";
import type { FutureStream } from "./future.js";
import { composeBody, type NewsDraft, pickDomain } from "./news-draft.js";
import { DAY, HOUR, pad } from "./time.js";
import { CITIES, COUNTRIES, FILLER_COMPANIES, fill, personName, SECTORS } from "./vocab.js";

export const NEWS_PARAMS = {
  /** background articles per hour (mean, before diurnal modulation) */
  perHour: 11,
  diurnalAmplitude: 0.4,
  /** bursts: story clusters per day and articles per burst */
  burstsPerDay: 1.2,
  burstMin: 8,
  burstMax: 25,
  burstSpanHours: 6,
} as const;

const TITLES = [
  "{company} names {person} as chief executive",
  "{city} council approves budget for {sector} upgrades",
  "{country} reports steady growth in {sector} exports",
  "Heavy rain disrupts travel across {city}",
  "{company} shares slip after cautious outlook on {sector}",
  "{person} wins {city} marathon in record time",
  "New {sector} rules take effect in {country}",
  "{company} opens research centre in {city}",
  "Union and employers in {country} {sector} reach tentative deal",
  "{city} museum unveils restored collection",
  "{country} statistics office revises jobless figures",
  "Start-up from {city} raises funding for {sector} software",
  "{company} recalls products over safety concerns",
  "Court in {country} hears appeal in long-running {sector} case",
  "Power outage hits parts of {city}",
];
const MIDDLES = [
  "Officials said the measures would be reviewed at the end of the year.",
  "The announcement follows months of preparation.",
  "Local businesses gave the news a mixed reception.",
  "{person} said the decision reflected long-term priorities.",
  "The figures were broadly in line with expectations.",
  "Critics argue the plan does not go far enough.",
];
const BURST_STORIES = [
  {
    title: "Storm {name} makes landfall near {city}",
    follow: [
      "Storm {name}: evacuations ordered in {city}",
      "Storm {name} leaves thousands without power",
      "Cleanup begins after Storm {name}",
    ],
  },
  {
    title: "Major data breach at {company}",
    follow: [
      "{company} breach: what customers should do",
      "Regulators in {country} open inquiry into {company} breach",
      "{company} apologises after breach",
    ],
  },
  {
    title: "Earthquake shakes {city}",
    follow: [
      "Aftershocks rattle {city}",
      "Engineers inspect bridges after {city} quake",
      "Schools in {city} reopen after quake",
    ],
  },
  {
    title: "{country} cabinet reshuffle announced",
    follow: [
      "Who's in and who's out in {country}'s cabinet",
      "Markets react to {country} reshuffle",
      "Opposition criticises {country} reshuffle",
    ],
  },
];
const STORM_NAMES = ["Alda", "Bram", "Corin", "Delphine", "Edda", "Faro", "Gwen", "Hollis"];

function slotsFor(rng: Rng): Record<string, string> {
  return {
    company: rng.pick(FILLER_COMPANIES),
    person: personName(rng),
    city: rng.pick(CITIES),
    country: rng.pick(COUNTRIES),
    sector: rng.pick(SECTORS),
    name: rng.pick(STORM_NAMES),
  };
}

/**
 * Background articles in [from, to): a diurnal Poisson stream plus story bursts. Both are
 * sequential in time; with `future` (cut T) each restarts at T from the future stream (both
 * processes are memoryless), and burst articles of a burst started before T that are published at
 * or after T are re-drawn from it, while the pre-T draws are consumed as without `future`.
 */
export function generateBackgroundNews(rng: Rng, from: number, to: number, future: FutureStream = null): NewsDraft[] {
  const P = NEWS_PARAMS;
  const out: NewsDraft[] = [];
  let arrivals = rng.split("arrivals");
  let text = rng.split("text");
  const max = P.perHour * (1 + P.diurnalAmplitude);
  let t = from;
  let k = 0;
  let switched = future === null;
  for (;;) {
    t += arrivals.exp(max / HOUR);
    if (!switched && future !== null && t >= future.from) {
      switched = true;
      t = future.from;
      arrivals = future.rng.split("arrivals");
      text = future.rng.split("text");
      continue;
    }
    if (t >= to) break;
    const h = (t % DAY) / HOUR;
    const rate = P.perHour * (1 + P.diurnalAmplitude * Math.cos((2 * Math.PI * (h - 14)) / 24));
    if (!arrivals.chance(rate / max)) continue;
    const sl = slotsFor(text);
    const title = fill(text.pick(TITLES), sl);
    out.push({
      key: `bg:${pad(k++, 6)}`,
      published_at: Math.floor(t / 1000) * 1000,
      domain: pickDomain(text),
      title,
      text: composeBody(text, `${title}.`, [fill(text.pick(MIDDLES), sl), fill(text.pick(MIDDLES), sl)]),
    });
  }
  let bursts = rng.split("bursts");
  let b = from;
  let bi = 0;
  let burstsSwitched = future === null;
  for (;;) {
    b += bursts.exp(P.burstsPerDay / DAY);
    if (!burstsSwitched && future !== null && b >= future.from) {
      burstsSwitched = true;
      b = future.from;
      bursts = future.rng.split("bursts");
      continue;
    }
    if (b >= to) break;
    const story = bursts.pick(BURST_STORIES);
    const sl = slotsFor(bursts);
    const n = P.burstMin + bursts.int(P.burstMax - P.burstMin + 1);
    // a burst straddling T: its articles at or after T come from the future stream (same story)
    const late = burstsSwitched || future === null ? null : future.rng.split(`burst-${b}`);
    for (let j = 0; j < n; j++) {
      const tj = j === 0 ? b : b + bursts.uniform(0, P.burstSpanHours) * HOUR;
      if (tj >= to) continue;
      let title = fill(j === 0 ? story.title : bursts.pick(story.follow), sl);
      let domain = pickDomain(bursts);
      let body = composeBody(bursts, `${title}.`, [fill(bursts.pick(MIDDLES), sl)]);
      let at = tj;
      if (late !== null && future !== null && tj >= future.from) {
        at = future.from + late.uniform(0, Math.max(0, b + P.burstSpanHours * HOUR - future.from));
        title = fill(late.pick(story.follow), sl);
        domain = pickDomain(late);
        body = composeBody(late, `${title}.`, [fill(late.pick(MIDDLES), sl)]);
        if (at >= to) continue;
      }
      out.push({
        key: `burst:${pad(bi, 4)}:${pad(j, 3)}`,
        published_at: Math.floor(at / 1000) * 1000,
        domain,
        title,
        text: body,
      });
    }
    bi++;
  }
  return out;
}
