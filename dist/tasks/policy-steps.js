async function runSteps(api, script) {
  let r = script.next();
  while (!r.done) {
    const res = await api.call(r.value.tool, r.value.args);
    r = script.next(res);
  }
}
export {
  runSteps
};
//# sourceMappingURL=policy-steps.js.map
