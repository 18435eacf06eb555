import type { TopLevelSpec } from "vega-lite";

/** Chart look shared by every report chart. */
const CONFIG = {
  background: "white",
  font: "Helvetica, Arial, sans-serif",
  padding: 8,
  view: { stroke: "#d0d7de" },
  title: { fontSize: 14, anchor: "start", offset: 10 },
  // headless vega estimates text widths (0.8 em per character, no canvas), which overstates
  // them: label limits are off so nothing is cut short
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#eaeef2", labelLimit: 0 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 0, titleLimit: 0 },
} as const;

/**
 * Compiles a vega-lite spec and renders it to SVG headless (vega's View with the `none`
 * renderer; no DOM, no canvas, no network: specs carry their data inline). Element ids inside
 * the SVG are prefixed with `idPrefix`, so several charts can sit inline in one HTML document
 * without their clip paths or gradients colliding.
 */
export async function renderSvg(spec: TopLevelSpec, idPrefix: string): Promise<string> {
  // loaded on first use: every CLI start would otherwise pay for vega
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const vgSpec = compile(spec, { config: CONFIG }).spec;
  const view = new vega.View(vega.parse(vgSpec), {
    renderer: "none",
    loader: vega.loader({ mode: "file" }),
    logLevel: vega.Warn,
  });
  try {
    const svg = await view.toSVG();
    return prefixIds(svg, idPrefix);
  } finally {
    view.finalize();
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Renames every id="x" to id="<prefix>x" and its url(#x) / href="#x" references. */
export function prefixIds(svg: string, prefix: string): string {
  const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);
  let out = svg;
  for (const id of new Set(ids)) {
    const e = escapeRe(id);
    out = out
      .replace(new RegExp(`(\\sid=")${e}"`, "g"), `$1${prefix}${id}"`)
      .replace(new RegExp(`url\\(#${e}\\)`, "g"), `url(#${prefix}${id})`)
      .replace(new RegExp(`(href=")#${e}"`, "g"), `$1#${prefix}${id}"`);
  }
  return out;
}
