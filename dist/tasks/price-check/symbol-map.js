function split(symbol) {
  const i = symbol.indexOf("-");
  if (i <= 0 || i === symbol.length - 1) throw new Error(`symbol "${symbol}" is not BASE-QUOTE`);
  return { base: symbol.slice(0, i), quote: symbol.slice(i + 1) };
}
const KRAKEN_LEGACY = /* @__PURE__ */ new Set(["XBTUSD", "ETHUSD", "XBTEUR", "ETHEUR"]);
function pairNames(style, symbol) {
  const { base, quote } = split(symbol);
  switch (style) {
    case "kraken": {
      const kBase = base === "BTC" ? "XBT" : base;
      const alt = `${kBase}${quote}`;
      const resultKey = KRAKEN_LEGACY.has(alt) ? `X${kBase}Z${quote}` : alt;
      return { request: alt, aliases: resultKey === alt ? [] : [resultKey], resultKey };
    }
    case "binance-spot":
    case "binance-index":
      return { request: `${base}${quote}`, aliases: [], resultKey: `${base}${quote}` };
    case "coinbase":
      return { request: symbol, aliases: [], resultKey: symbol };
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
function symbolForPair(style, symbols, requested) {
  const want = requested.toUpperCase();
  for (const s of symbols) {
    const n = pairNames(style, s);
    if (n.request.toUpperCase() === want || n.aliases.some((a) => a.toUpperCase() === want)) return s;
  }
  return null;
}
function krakenPriceDecimals(altname) {
  switch (altname) {
    case "XBTUSD":
    case "XBTUSDT":
      return 1;
    default:
      return 2;
  }
}
export {
  krakenPriceDecimals,
  pairNames,
  symbolForPair
};
//# sourceMappingURL=symbol-map.js.map
