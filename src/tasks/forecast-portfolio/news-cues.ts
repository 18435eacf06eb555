/**
 * Headline cues of the honest news forecaster: phrases that announce, or make likely, that an event
 * happens (yes) or does not (no). Strong cues are resolutions ("X confirms Y", "Y will not happen");
 * lean cues are reports and signals. The negative phrases are checked first, so "Y will not happen,
 * Z confirms" is a strong no. Plain text matching on the lower-cased title; nothing hidden.
 */

export type Cue = "strong_yes" | "strong_no" | "lean_yes" | "lean_no";

const STRONG_NO = ["formally abandons", "will not happen", "deadline passes without", "rejects", "is cancelled"];
const LEAN_NO = [
  "poised to abandon",
  "appears unlikely",
  "support collapses",
  "hopes fade",
  "denies report",
  "rules out",
  "stall",
  "setback",
  "cast doubt",
  "off the table",
];
const STRONG_YES = [" confirms ", "it's official", "goes ahead", "is approved"];
const LEAN_YES = [
  "set to confirm",
  "finalising",
  "finalizing",
  "claims",
  "moves closer",
  "breakthrough",
  "momentum builds",
];

/** The cue of one headline, or null when it says nothing either way. */
export function headlineCue(title: string): Cue | null {
  const t = ` ${title.toLowerCase()} `;
  if (STRONG_NO.some((c) => t.includes(c))) return "strong_no";
  if (LEAN_NO.some((c) => t.includes(c))) return "lean_no";
  if (LEAN_YES.some((c) => t.includes(c))) return "lean_yes";
  if (STRONG_YES.some((c) => t.includes(c))) return "strong_yes";
  return null;
}

/** search words that find cue headlines (BM25 stems them like the index: "confirms" finds "confirm") */
export const CUE_QUERY =
  'confirms OR official OR "goes ahead" OR abandon OR abandons OR "will not happen" OR deadline OR unlikely OR fade OR denies OR claims OR finalising';
