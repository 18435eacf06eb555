import { detectionTime } from "./markets.js";
import { DAY, pad, utcDayStart } from "./time.js";
function capitalize(x) {
  return x.charAt(0).toUpperCase() + x.slice(1);
}
function dateLabel(t) {
  return new Date(t).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}
function priceAt(plan, t) {
  let p = null;
  for (let i = 0; i < plan.yes.t.length && plan.yes.t[i] <= t; i++) p = plan.yes.p[i];
  return p;
}
function generateQuestions(rng, plans, filingLabels, start, end) {
  const drafts = [];
  const firstDay = utcDayStart(start) + (start % DAY === 0 ? 0 : DAY);
  const days = Math.max(1, Math.floor((end - firstDay) / DAY));
  const openBefore = (known, r) => {
    const latest = utcDayStart(known - 1);
    const back = 1 + r.int(7);
    return Math.max(firstDay, latest - back * DAY);
  };
  for (const plan of plans) {
    const r = rng.split(plan.id);
    if (plan.role === "long_dated" && plan.result !== null && plan.closed_at !== null) {
      const tDet = detectionTime(plan.yes, plan.result) ?? plan.closed_at;
      const open = Math.max(openBefore(tDet, r), utcDayStart(plan.open) + (plan.open % DAY === 0 ? 0 : DAY));
      drafts.push({
        title: `Will ${plan.subject.clause} by ${dateLabel(plan.scheduled_end)}?`,
        background: `${capitalize(plan.subject.actor)} has been at the centre of discussion about ${plan.subject.noun}. ${plan.subject.person} is among the people involved; the story is followed closely in ${plan.subject.place}.`,
        criteria: `Resolves Yes if ${plan.subject.clause} by ${dateLabel(plan.scheduled_end)} (UTC) as confirmed by official sources; resolves No if that becomes impossible or the date passes.`,
        open,
        resolve: plan.scheduled_end,
        answer: plan.result,
        resolved_at: plan.closed_at
      });
    }
    if (plan.role === "breakout") {
      const at = firstDay + Math.min(days, Math.max(1, Math.round(r.uniform(0.5, 1) * days))) * DAY;
      if (at > end) continue;
      const open = Math.max(firstDay, at - (3 + r.int(5)) * DAY);
      const pOpen = priceAt(plan, open) ?? 0.5;
      const thr = Math.min(90, Math.max(10, Math.round(pOpen * 100 / 5) * 5));
      const pAt = priceAt(plan, at);
      if (pAt === null || open >= at) continue;
      drafts.push({
        title: `Will the market probability that ${plan.subject.clause} be above ${thr}% on ${dateLabel(at)} at 00:00 UTC?`,
        background: `A prediction market asks whether ${plan.subject.clause}. News about ${plan.subject.noun} moves it.`,
        criteria: `Resolves Yes if the last traded Yes price of the market at or before ${dateLabel(at)} 00:00 UTC is above ${thr / 100}.`,
        open,
        resolve: at,
        answer: pAt > thr / 100 ? "Yes" : "No",
        resolved_at: at
      });
    }
  }
  for (const l of filingLabels) {
    const v = l.value;
    if (v.form === "8-K" || v.revenue === void 0 || l.t === null) continue;
    if (l.t < start || l.t >= end) continue;
    const r = rng.split(l.key);
    const open = openBefore(l.t, r);
    if (open >= l.t) continue;
    const thrB = Math.round(v.revenue / 1e9 * (1 + r.uniform(-0.04, 0.04)) * 100) / 100;
    const period = v.fp === "FY" ? `fiscal year ${v.fy}` : `${v.fp} of fiscal ${v.fy}`;
    drafts.push({
      title: `Will ${v.ticker} report revenue above $${thrB.toFixed(2)} billion for ${period}?`,
      background: `${v.ticker} files its ${v.form} for ${period} with the SEC during this period.`,
      criteria: `Resolves Yes if the revenue reported in ${v.ticker}'s ${v.form} for ${period} exceeds $${thrB.toFixed(2)} billion.`,
      open,
      resolve: utcDayStart(l.t) + DAY,
      answer: v.revenue > thrB * 1e9 ? "Yes" : "No",
      resolved_at: l.t
    });
  }
  drafts.sort((a, b) => a.open - b.open || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  const questions = [];
  const answers = [];
  drafts.forEach((d, i) => {
    if (d.open >= end || d.open >= d.resolved_at) return;
    const id = `q-${pad(i + 1, 4)}`;
    questions.push({
      id,
      title: d.title,
      background: d.background,
      criteria: d.criteria,
      open: d.open,
      resolve: d.resolve,
      answer_type: "binary",
      visible_at: d.open
    });
    answers.push({ question: id, answer: d.answer, resolved_at: d.resolved_at });
  });
  return { questions, answers };
}
function questionResolutions(questions, answers) {
  const resolveOf = new Map(questions.map((q) => [q.id, q.resolve]));
  return answers.map((a) => {
    const t = Math.max(a.resolved_at, resolveOf.get(a.question) ?? a.resolved_at);
    const day = utcDayStart(t);
    return {
      question: a.question,
      answer: a.answer,
      resolved_at: a.resolved_at,
      visible_at: day === t ? t : day + DAY
    };
  });
}
export {
  generateQuestions,
  questionResolutions
};
//# sourceMappingURL=questions.js.map
