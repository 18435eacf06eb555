const CONFIG = {
  background: "white",
  font: "Helvetica, Arial, sans-serif",
  padding: 8,
  view: { stroke: "#d0d7de" },
  title: { fontSize: 14, anchor: "start", offset: 10 },
  // headless vega estimates text widths (0.8 em per character, no canvas), which overstates
  // them: label limits are off so nothing is cut short
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#eaeef2", labelLimit: 0 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 0, titleLimit: 0 }
};
async function renderSvg(spec, idPrefix) {
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const vgSpec = compile(spec, { config: CONFIG }).spec;
  const view = new vega.View(vega.parse(vgSpec), {
    renderer: "none",
    loader: vega.loader({ mode: "file" }),
    logLevel: vega.Warn
  });
  try {
    const svg = await view.toSVG();
    return prefixIds(svg, idPrefix);
  } finally {
    view.finalize();
  }
}
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function prefixIds(svg, prefix) {
  const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  let out = svg;
  for (const id of new Set(ids)) {
    const e = escapeRe(id);
    out = out.replace(new RegExp(`(\\sid=")${e}"`, "g"), `$1${prefix}${id}"`).replace(new RegExp(`url\\(#${e}\\)`, "g"), `url(#${prefix}${id})`).replace(new RegExp(`(href=")#${e}"`, "g"), `$1#${prefix}${id}"`);
  }
  return out;
}
export {
  prefixIds,
  renderSvg
};
//# sourceMappingURL=render-svg.js.map
