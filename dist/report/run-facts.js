function performanceSurvived(perf) {
  for (const [k, v] of Object.entries(perf)) {
    if (k !== "window_survived" && !k.endsWith("_window_survived")) continue;
    const value = typeof v === "number" ? v : v && typeof v === "object" ? v.value : null;
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return null;
}
function needsLedgerForSurvival(p) {
  const { flags, performance } = p.run.results;
  if (!flags.budget_exhausted && !flags.llm_budget_exhausted) return false;
  return !(flags.llm_budget_exhausted && performanceSurvived(performance) !== null);
}
function runFacts(p, scan) {
  const r = p.run.results;
  const exhausted = r.flags.budget_exhausted || r.flags.llm_budget_exhausted;
  let survived = null;
  let survivedSource = null;
  const exhaustedAt = scan?.exhaustedAt ?? null;
  if (exhausted) {
    const fromPerf = performanceSurvived(r.performance);
    if (r.flags.llm_budget_exhausted && fromPerf !== null) {
      survived = fromPerf;
      survivedSource = "performance";
    } else if (exhaustedAt !== null && r.timing.anytime.length > 0) {
      const before = r.timing.anytime.filter((a) => Date.parse(a.t) <= exhaustedAt).length;
      survived = before / r.timing.anytime.length;
      survivedSource = "ledger";
    } else survivedSource = "unknown";
  }
  const v = r.performance.primary.value;
  return {
    placed: p,
    primary: v !== null && Number.isFinite(v) ? v : null,
    spent: r.resources.spent_usd,
    exhausted,
    survived,
    survivedSource,
    exhaustedAt
  };
}
export {
  needsLedgerForSurvival,
  runFacts
};
//# sourceMappingURL=run-facts.js.map
