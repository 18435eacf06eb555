function statelessPolicy(p) {
  const { act, nextWake, ...meta } = p;
  return { ...meta, start: (api) => ({ act: () => act(api), nextWake }) };
}
function oracleStatelessPolicy(p) {
  const { act, nextWake, ...meta } = p;
  return {
    ...meta,
    oracle: true,
    start: (api, env) => ({ act: () => act(api, requireOracle(p.name, env)), nextWake })
  };
}
function requireOracle(name, env) {
  if (!env) throw new Error(`policy "${name}" is an oracle: it runs only with an oracle environment`);
  return env;
}
export {
  oracleStatelessPolicy,
  requireOracle,
  statelessPolicy
};
//# sourceMappingURL=reference-policy.js.map
