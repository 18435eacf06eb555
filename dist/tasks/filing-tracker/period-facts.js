const DAY_MS = 864e5;
function durationDays(start, end) {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
}
function periodRange(rule) {
  switch (rule.form) {
    case "10-Q":
      return rule.quarter_days;
    case "10-K":
      return rule.year_days;
    default:
      return null;
  }
}
function pickPeriodFact(facts, rule) {
  const range = periodRange(rule);
  if (!range) return null;
  const hits = facts.filter((f) => {
    if (f.accn !== rule.accession || f.end !== rule.report_date || f.start === null) return false;
    const d = durationDays(f.start, f.end);
    return d >= range[0] && d <= range[1];
  });
  hits.sort(
    (a, b) => a.start < b.start ? 1 : a.start > b.start ? -1 : a.val - b.val
  );
  return hits[0] ?? null;
}
export {
  durationDays,
  periodRange,
  pickPeriodFact
};
//# sourceMappingURL=period-facts.js.map
