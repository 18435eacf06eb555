import { z } from "zod";

/** JSON Schema keys that say nothing a model can use: dropped everywhere. */
const NOISE_KEYS = new Set(["$schema", "$id", "$comment"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** zod's stand-ins for "no bound" on integers (`.int()` adds ±MAX_SAFE_INTEGER). */
const isNoBound = (key: string, v: unknown) =>
  (key === "maximum" && v === Number.MAX_SAFE_INTEGER) || (key === "minimum" && v === Number.MIN_SAFE_INTEGER);

/**
 * A tool's argument schema as models are sent it: the JSON Schema zod generates, minus what only
 * adds tokens or trips strict servers. `$schema` (and `$id`, `$comment`) go; so do zod's implicit
 * integer bounds (`maximum: 9007199254740991`) and `propertyNames: {type: "string"}` (object keys
 * are strings anyway); a type list (`type: ["string", "number"]`) becomes an `anyOf` of single
 * types, which every provider's schema subset accepts. Everything else (descriptions, enums, real
 * bounds, defaults, `required`, `additionalProperties`) is kept. The input is not modified.
 */
export function minimalSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(minimalSchema);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (NOISE_KEYS.has(k) || isNoBound(k, v)) continue;
    if (k === "propertyNames" && isObject(v) && v.type === "string" && Object.keys(v).length === 1) continue;
    if (k === "properties" && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, minimalSchema(s)]));
      continue;
    }
    out[k] = minimalSchema(v);
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    const types = type as unknown[];
    return types.length === 1 ? { ...rest, type: types[0] } : { ...rest, anyOf: types.map((t) => ({ type: t })) };
  }
  return out;
}

/** The minimal JSON Schema of a tool's zod arguments (as the input side accepts them). */
export function toolParameters(args: z.ZodType): Record<string, unknown> {
  return minimalSchema(z.toJSONSchema(args, { io: "input" })) as Record<string, unknown>;
}
