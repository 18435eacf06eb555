import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/common/canonical-json.js";
import { ConfigError, loadRunConfig, parseRunConfig } from "../../src/run/config.js";

describe("run config", () => {
  it("fills defaults", () => {
    const c = parseRunConfig({ task: "daily-digest" });
    expect(c).toMatchObject({
      task: "daily-digest",
      world: { seed: 1 },
      seed: 0,
      feedback: "none",
      agent: { trigger: "sleep" },
    });
  });

  it("takes the news search statistics (global by default, or strict) and rejects others", () => {
    expect(parseRunConfig({ task: "daily-digest" }).search).toBeUndefined();
    expect(parseRunConfig({ task: "daily-digest", search: "strict" }).search).toBe("strict");
    expect(() => parseRunConfig({ task: "daily-digest", search: "loose" })).toThrow(/search/);
  });

  it("names every bad field and the reason", () => {
    expect(() => parseRunConfig({ task: "x", agent: { trigger: "sometimes" }, seed: -1, colour: "red" })).toThrow(
      ConfigError,
    );
    try {
      parseRunConfig({ task: "x", agent: { trigger: "sometimes" }, seed: -1, colour: "red" });
    } catch (e) {
      const m = (e as Error).message;
      expect(m).toContain("agent.trigger");
      expect(m).toContain("seed");
      expect(m).toContain('Unrecognized key: "colour"');
    }
  });

  it("parses dates and rejects bad ones", () => {
    expect(
      parseRunConfig({ task: "t", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-02T00:00:00Z" }).sim_start,
    ).toBe(Date.parse("2026-03-01T00:00:00Z"));
    expect(() => parseRunConfig({ task: "t", sim_start: "soon", sim_end: "later" })).toThrow(
      /sim_start: not an ISO date-time/,
    );
    expect(() => parseRunConfig({ task: "t", sim_start: 5 })).toThrow(/given together/);
  });

  it("loads YAML and JSON files; malformed files get a clear error", () => {
    const d = mkdtempSync(join(tmpdir(), "relive-cfg-"));
    writeFileSync(join(d, "a.yaml"), "task: price-check\nagent:\n  trigger: cron\n");
    expect(loadRunConfig(join(d, "a.yaml")).agent.trigger).toBe("cron");
    writeFileSync(join(d, "b.json"), "{ nope");
    expect(() => loadRunConfig(join(d, "b.json"))).toThrow(/is not valid JSON/);
    expect(() => loadRunConfig(join(d, "missing.yaml"))).toThrow(/cannot read config/);
  });

  it("canonical JSON sorts keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });
});
