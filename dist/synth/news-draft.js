import { CITIES, fill, LAST_NAMES, NEWS_DOMAINS, personName } from "./vocab.js";
const CLOSERS = [
  "Further details are expected in the coming days.",
  "The story is developing and will be updated.",
  "Officials did not respond to a request for comment.",
  "Reporting by {reporter} in {city}; editing by {editor}.",
  "Markets and observers will be watching the next announcement closely."
];
const ANALYST_LINES = [
  '"It is too early to draw firm conclusions," said {analyst}, an analyst based in {city}.',
  '{analyst}, who follows the sector from {city}, called the development "significant but not decisive".',
  '"We have seen this pattern before," said {analyst}, a researcher in {city}.'
];
function composeBody(rng, lead, middle) {
  const slots = {
    analyst: personName(rng),
    city: rng.pick(CITIES),
    reporter: personName(rng),
    editor: rng.pick(LAST_NAMES)
  };
  const parts = [lead, ...middle];
  if (rng.chance(0.7)) parts.push(fill(rng.pick(ANALYST_LINES), slots));
  parts.push(fill(rng.pick(CLOSERS), slots));
  return parts.join(" ");
}
function pickDomain(rng) {
  return rng.pick(NEWS_DOMAINS);
}
export {
  composeBody,
  pickDomain
};
//# sourceMappingURL=news-draft.js.map
