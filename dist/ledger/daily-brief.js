const usd = (x) => `$${x.toFixed(4)}`;
function dailyBrief(t, day, days, wallet) {
  const budget = wallet.limits.budget_usd;
  const llmCap = wallet.limits.domain_caps.llm ?? budget;
  const spent = wallet.spent;
  const llm = wallet.spentIn("llm");
  const byType = wallet.spendByType();
  const parts = Object.entries(byType).map(([k, v]) => `${k} ${usd(v)}`);
  const text = `day ${day} of ${days}: spent ${usd(spent)} of ${usd(budget)} (${usd(Math.max(0, budget - spent))} left); LLM ${usd(llm)} of ${usd(llmCap)} (${usd(Math.max(0, llmCap - llm))} left)` + (parts.length ? `; by type: ${parts.join(", ")}` : "");
  return {
    type: "daily_brief",
    t,
    day,
    days,
    spent_usd: spent,
    left_usd: Math.max(0, budget - spent),
    llm_spent_usd: llm,
    llm_left_usd: Math.max(0, llmCap - llm),
    by_type: byType,
    text
  };
}
export {
  dailyBrief
};
//# sourceMappingURL=daily-brief.js.map
