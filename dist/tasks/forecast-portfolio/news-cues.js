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
  "off the table"
];
const STRONG_YES = [" confirms ", "it's official", "goes ahead", "is approved"];
const LEAN_YES = [
  "set to confirm",
  "finalising",
  "finalizing",
  "claims",
  "moves closer",
  "breakthrough",
  "momentum builds"
];
function headlineCue(title) {
  const t = ` ${title.toLowerCase()} `;
  if (STRONG_NO.some((c) => t.includes(c))) return "strong_no";
  if (LEAN_NO.some((c) => t.includes(c))) return "lean_no";
  if (LEAN_YES.some((c) => t.includes(c))) return "lean_yes";
  if (STRONG_YES.some((c) => t.includes(c))) return "strong_yes";
  return null;
}
const CUE_QUERY = 'confirms OR official OR "goes ahead" OR abandon OR abandons OR "will not happen" OR deadline OR unlikely OR fade OR denies OR claims OR finalising';
export {
  CUE_QUERY,
  headlineCue
};
//# sourceMappingURL=news-cues.js.map
