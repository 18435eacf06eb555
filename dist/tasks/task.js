const NEVER_RELEASED = 864e13;
const releasedAtOf = (o) => Math.max(o.t, o.released_at ?? o.t);
const defaultOraclePayload = (o) => ({
  key: o.key,
  status: o.status,
  credit: o.credit,
  ...o.detail
});
function defineTask(spec) {
  const { open, ...rest } = spec;
  return {
    ...rest,
    open(ctx) {
      const r = open({ ...ctx, params: spec.params.parse(ctx.params ?? {}) });
      if (spec.selfFeedback && !r.feedback?.self)
        throw new Error(`internal: task ${spec.id} declares self feedback but its run gives no labels`);
      if (spec.multiActor && !r.program) throw new Error(`internal: task ${spec.id} is multi-actor but has no program`);
      return {
        instruction: () => r.instruction(),
        tools: () => r.tools(),
        limiters: () => r.limiters?.() ?? {},
        deadlines: (view, until) => r.deadlines?.(view, until) ?? [],
        state: () => r.state?.() ?? [],
        observations: (since, now) => r.observations?.(since, now) ?? [],
        program: () => r.program?.() ?? null,
        feedback: { oracle: r.feedback?.oracle ?? defaultOraclePayload, self: r.feedback?.self ?? null },
        wakeNote: (w) => r.wakeNote?.(w) ?? null,
        dispose: async () => {
          await r.dispose?.();
        }
      };
    }
  };
}
export {
  NEVER_RELEASED,
  defineTask,
  releasedAtOf
};
//# sourceMappingURL=task.js.map
