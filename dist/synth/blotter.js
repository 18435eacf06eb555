import { SYNTH_COMPANIES } from "./filings.js";
const HOUR = 36e5;
function generateBlotter(from, start, end, ids) {
  const at = (share) => {
    const t = start + share * (end - start);
    return t - t % (24 * HOUR) + 14 * HOUR;
  };
  const rows = [];
  const emit = (t, c, action) => rows.push({
    id: `bl-${ids.hex("blotter", [t, c.cik, action], 8)}`,
    kind: "holding",
    t,
    payload: { cik: c.cik, ticker: c.ticker, action },
    visible_at: t
  });
  const last = SYNTH_COMPANIES[SYNTH_COMPANIES.length - 1];
  for (const c of SYNTH_COMPANIES) if (c !== last) emit(from, c, "hold");
  emit(at(0.25), last, "add");
  emit(at(0.75), SYNTH_COMPANIES[0], "drop");
  return rows;
}
export {
  generateBlotter
};
//# sourceMappingURL=blotter.js.map
