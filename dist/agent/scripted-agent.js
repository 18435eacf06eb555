function scriptedAgentBody(o) {
  return async (self) => {
    const api = { now: () => self.now(), call: (tool, args) => o.runtime.call(self.id, tool, args) };
    if (o.policy.oracle && !o.oracleEnv)
      throw new Error(`policy "${o.policy.name}" is an oracle: it runs only with an oracle environment`);
    const policy = o.policy.start(api, o.policy.oracle ? o.oracleEnv : null);
    const ledgerWake = (w) => {
      if (w.reason === "end") return;
      o.ledger.append({
        type: "wake",
        t: w.at,
        actor: self.id,
        reason: w.reason,
        ...w.triggerId ? { trigger_id: w.triggerId } : {}
      });
    };
    let wake = { at: self.now(), reason: "start" };
    if (o.trigger === "cron") {
      o.kernel.addCron(self.id, "base", o.baseSchedule, "task base schedule (read-only)");
      (o.policy.cron ?? []).forEach((expr, i) => {
        o.kernel.addCron(self.id, `policy-${i + 1}`, expr, `installed by policy ${o.policy.name}`);
      });
    }
    while (wake.reason !== "end") {
      ledgerWake(wake);
      await policy.act();
      if (o.trigger === "sleep") {
        const next = policy.nextWake(self.now());
        o.ledger.append({ type: "wait", t: self.now(), actor: self.id, until: next, tool: "sleep" });
        wake = next === null ? await self.waitForTrigger() : await self.sleepUntil(next);
      } else {
        o.ledger.append({ type: "wait", t: self.now(), actor: self.id, until: null, tool: "done" });
        wake = await self.waitForTrigger();
      }
    }
  };
}
export {
  scriptedAgentBody
};
//# sourceMappingURL=scripted-agent.js.map
