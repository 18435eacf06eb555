import { z } from "zod";

/** "field.path: message; other: message" — names every offending field. */
export function formatZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`).join("; ");
}

/** A one-line summary of a tool's arguments from its JSON Schema, used as a repair hint. */
export function describeArgs(schema: z.ZodType): string {
  const js = z.toJSONSchema(schema, { io: "input" }) as {
    properties?: Record<string, { type?: string; enum?: unknown[]; description?: string }>;
    required?: string[];
  };
  const props = Object.entries(js.properties ?? {});
  if (props.length === 0) return "none (call with {})";
  const req = new Set(js.required ?? []);
  return `{ ${props
    .map(
      ([k, p]) =>
        `${k}${req.has(k) ? "" : "?"}: ${p.enum ? p.enum.map((e) => JSON.stringify(e)).join("|") : (p.type ?? "any")}`,
    )
    .join(", ")} }`;
}
