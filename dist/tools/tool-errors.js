import { z } from "zod";
function formatZodError(err) {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`).join("; ");
}
function describeArgs(schema) {
  const js = z.toJSONSchema(schema, { io: "input" });
  const props = Object.entries(js.properties ?? {});
  if (props.length === 0) return "none (call with {})";
  const req = new Set(js.required ?? []);
  return `{ ${props.map(
    ([k, p]) => `${k}${req.has(k) ? "" : "?"}: ${p.enum ? p.enum.map((e) => JSON.stringify(e)).join("|") : p.type ?? "any"}`
  ).join(", ")} }`;
}
export {
  describeArgs,
  formatZodError
};
//# sourceMappingURL=tool-errors.js.map
