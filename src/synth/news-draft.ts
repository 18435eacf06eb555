import type { Rng } from "../common/random.js";
import { CITIES, fill, LAST_NAMES, NEWS_DOMAINS, personName } from "./vocab.js";

/**
 * A news article before global id assignment. Modules (markets, filings, background) produce
 * drafts with a module-local `key`; `generate.ts` sorts all drafts by (published_at, key) and
 * assigns `n000001`, ... so truth rows can be rewritten from keys to ids.
 */
export interface NewsDraft {
  key: string;
  published_at: number;
  domain: string;
  title: string;
  text: string;
}

const CLOSERS = [
  "Further details are expected in the coming days.",
  "The story is developing and will be updated.",
  "Officials did not respond to a request for comment.",
  "Reporting by {reporter} in {city}; editing by {editor}.",
  "Markets and observers will be watching the next announcement closely.",
];

const ANALYST_LINES = [
  '"It is too early to draw firm conclusions," said {analyst}, an analyst based in {city}.',
  '{analyst}, who follows the sector from {city}, called the development "significant but not decisive".',
  '"We have seen this pattern before," said {analyst}, a researcher in {city}.',
];

/** a body of a few sentences: the lead, the given middle sentences, an analyst line and a closer */
export function composeBody(rng: Rng, lead: string, middle: readonly string[]): string {
  const slots = {
    analyst: personName(rng),
    city: rng.pick(CITIES),
    reporter: personName(rng),
    editor: rng.pick(LAST_NAMES),
  };
  const parts = [lead, ...middle];
  if (rng.chance(0.7)) parts.push(fill(rng.pick(ANALYST_LINES), slots));
  parts.push(fill(rng.pick(CLOSERS), slots));
  return parts.join(" ");
}

export function pickDomain(rng: Rng): string {
  return rng.pick(NEWS_DOMAINS);
}
