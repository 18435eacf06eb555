import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateProgram } from "../../../src/triggers/watcher/run-program.js";
import { envkitDts, schemaToTs, seedWorkspace } from "../../../src/triggers/watcher/seed.js";
import { drive, payloadOf, START, tmpWorkspace } from "./helpers.js";

const docs = [
  {
    name: "get_price",
    description: "Latest price of a symbol. $0.001 per call.",
    parameters: z.toJSONSchema(
      z
        .object({
          symbol: z.string().describe("ticker"),
          venue: z.enum(["kraken", "binance"]).optional(),
          depth: z.number().int().default(1),
        })
        .strict(),
      { io: "input" },
    ),
  },
  {
    name: "search_news",
    description: "Search news.",
    parameters: z.toJSONSchema(z.object({ q: z.string(), ids: z.array(z.string()).optional() }), { io: "input" }),
  },
];

describe("seedWorkspace", () => {
  it("writes envkit.d.ts, sleep.js and the task's example", () => {
    const ws = tmpWorkspace();
    seedWorkspace(ws, {
      taskId: "price-check",
      wrapperDocs: docs,
      exampleWatcher: "await envkit.wait(envkit.now() + 1);",
    });
    expect(ws.ls().map((e) => e.name)).toEqual(["envkit.d.ts", "sleep.js", "watcher.example.js"]);
    expect(ws.readText("watcher.example.js")).toBe("await envkit.wait(envkit.now() + 1);\n");
    const dts = ws.readText("envkit.d.ts");
    expect(dts).toContain('for task "price-check"');
    expect(dts).toContain("/** Latest price of a symbol. $0.001 per call. */");
    expect(dts).toContain(
      '    get_price(args: {\n      /** ticker */\n      symbol: string;\n      venue?: "kraken" | "binance";\n      /** default 1 */\n      depth?: number;\n    }): Promise<ToolResult>;',
    );
    expect(dts).toContain(
      "    search_news(args: {\n      q: string;\n      ids?: string[];\n    }): Promise<ToolResult>;",
    );
    expect(dts.indexOf("get_price")).toBeLessThan(dts.indexOf("search_news"));
  });

  it("schemaToTs covers unions, nullables, tuples, records and unknowns", () => {
    expect(schemaToTs({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
    expect(schemaToTs({ type: ["number", "null"] })).toBe("number | null");
    expect(schemaToTs({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe(
      "(string | number)[]",
    );
    expect(schemaToTs({ type: "array", items: [{ type: "string" }, { type: "boolean" }] })).toBe("[string, boolean]");
    expect(schemaToTs({ type: "object", additionalProperties: { type: "number" } })).toBe(
      "{\n  [key: string]: number;\n}",
    );
    expect(schemaToTs({ type: "object", properties: {}, additionalProperties: false })).toBe("Record<string, never>");
    expect(schemaToTs({ const: "x" })).toBe('"x"');
    expect(schemaToTs({})).toBe("unknown");
    expect(schemaToTs({ type: "object", properties: { "a-b": { type: "string" } }, required: ["a-b"] })).toBe(
      '{\n  "a-b": string;\n}',
    );
  });

  it("with no task tools the tools block is empty", () => {
    expect(envkitDts("t", [])).toContain("tools: {\n\n  };");
  });

  it("sleep.js validates, waits until its time and hands over", async () => {
    const ws = tmpWorkspace();
    seedWorkspace(ws, { taskId: "t", wrapperDocs: [], exampleWatcher: "// example\n" });
    const source = ws.readText("sleep.js");
    expect(
      await validateProgram({ source, path: "sleep.js", toolNames: [], now: START, deadline: null, workspace: ws }),
    ).toEqual({ ok: true });
    const r = await drive(source, { workspace: ws, tools: [] });
    expect(payloadOf(r.end)).toEqual({ note: "sleep.js woke at 2026-03-01T01:00:00.000Z" });
    expect(r.sleeps).toEqual([START + 3_600_000]);
  });
});
