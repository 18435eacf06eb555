import { describe, expect, it } from "vitest";
import { z } from "zod";
import { minimalSchema, toolParameters } from "../../src/tools/tool-schema.js";

describe("minimal tool schemas (what models are sent)", () => {
  it("drops $schema, zod's implicit integer bounds and string key names; type lists become anyOf", () => {
    const args = z
      .object({
        at: z.union([z.string(), z.number()]).optional().describe("when"),
        n: z.number().int().describe("a count"),
        k: z.number().int().min(1).max(9).describe("bounded"),
        tags: z.record(z.string(), z.string()).describe("labels"),
      })
      .strict();
    expect(toolParameters(args)).toEqual({
      type: "object",
      properties: {
        at: { description: "when", anyOf: [{ type: "string" }, { type: "number" }] },
        n: { type: "integer", description: "a count" },
        k: { type: "integer", minimum: 1, maximum: 9, description: "bounded" },
        tags: { type: "object", additionalProperties: { type: "string" }, description: "labels" },
      },
      required: ["n", "k", "tags"],
      additionalProperties: false,
    });
  });

  it("keeps real bounds, enums and defaults, and never modifies its input", () => {
    const input = { $schema: "x", type: ["string"], enum: ["a"], default: "a", maximum: 5 };
    const copy = structuredClone(input);
    expect(minimalSchema(input)).toEqual({ type: "string", enum: ["a"], default: "a", maximum: 5 });
    expect(input).toEqual(copy);
  });
});
