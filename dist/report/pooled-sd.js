function pooledSeedSd(cells) {
  const triggers = [...new Set(cells.map((c) => c.trigger))];
  return triggers.map((trigger) => {
    let num = 0;
    let df = 0;
    let used = 0;
    for (const c of cells) {
      if (c.trigger !== trigger || c.sd === null || c.n < 2) continue;
      num += (c.n - 1) * c.sd ** 2;
      df += c.n - 1;
      used++;
    }
    return { trigger, sd: df > 0 ? Math.sqrt(num / df) : null, df, cells: used };
  });
}
export {
  pooledSeedSd
};
//# sourceMappingURL=pooled-sd.js.map
