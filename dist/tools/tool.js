const ok = (value) => ({ ok: true, value });
const reject = (error) => ({ ok: false, error });
function defineTool(spec) {
  const { price, weight, run, ...meta } = spec;
  const tool = {
    ...meta,
    async invoke(rawArgs, ctx) {
      const b = tool.bind(rawArgs);
      return b.ok ? await b.call.run(ctx) : { ok: false, error: `invalid arguments for ${spec.name}: ${b.error.message}` };
    },
    priceOf(rawArgs) {
      const b = tool.bind(rawArgs);
      return b.ok ? b.call.price : 0;
    },
    bind(rawArgs) {
      const parsed = spec.args.safeParse(rawArgs);
      if (!parsed.success) return { ok: false, error: parsed.error };
      const args = parsed.data;
      return {
        ok: true,
        call: {
          args,
          price: price?.(args) ?? 0,
          weight: weight?.(args) ?? 1,
          run: (ctx) => run(args, ctx)
        }
      };
    }
  };
  return tool;
}
export {
  defineTool,
  ok,
  reject
};
//# sourceMappingURL=tool.js.map
