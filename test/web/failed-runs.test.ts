import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboard } from "../../src/web/app.js";
import { outcomeColors } from "../../src/web/timeline-svg.js";
import { makeRealRun, type RealRun } from "./real-run.js";

let root: string;
let real: RealRun;
const runs = () => join(root, "runs");

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "relive-web-failed-"));
  real = await makeRealRun(runs());
  // a finished run whose results say the measurement is broken
  const degenerate = join(runs(), "dddddddddddd-s7");
  cpSync(real.runDir, degenerate, { recursive: true });
  const r = JSON.parse(readFileSync(join(degenerate, "results.json"), "utf8"));
  writeFileSync(
    join(degenerate, "results.json"),
    JSON.stringify({ ...r, flags: { ...r.flags, failed_degenerate: true } }, null, 2),
  );
  // a run stopped by a provider failure: no results, the ledger ends with the provider_failed note
  const stopped = join(runs(), "eeeeeeeeeeee-s8");
  cpSync(real.runDir, stopped, { recursive: true });
  rmSync(join(stopped, "results.json"));
  const lines = readFileSync(join(stopped, "ledger.jsonl"), "utf8").trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1)!);
  appendFileSync(
    join(stopped, "ledger.jsonl"),
    `${JSON.stringify({ seq: last.seq + 1, type: "note", t: last.t, actor: "agent", kind: "provider_failed", message: "401 from http://127.0.0.1:9/v1" })}\n`,
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the dashboard never badges a failed run finished", () => {
  it("broken-measurement results and provider-stopped runs are `failed`; a good run is `finished`", async () => {
    const { app } = createDashboard({ runs: [runs()], now: () => Date.now() + 3_600_000 });
    const body = (await (await app.request("/api/runs")).json()) as { runs: { id: string; status: string }[] };
    const status = Object.fromEntries(body.runs.map((r) => [r.id, r.status]));
    expect(status["dddddddddddd-s7"]).toBe("failed");
    expect(status["eeeeeeeeeeee-s8"]).toBe("failed");
    expect(Object.values(status).filter((s) => s === "finished")).toHaveLength(1);
    const page = await (await app.request("/runs/eeeeeeeeeeee-s8")).text();
    expect(page).toContain('<span class="badge s-failed">failed</span>');
    expect(page).toContain("the model provider failed");
    expect(page).not.toContain('class="badge s-finished"');
    const listed = await (await app.request("/runs?status=failed")).text();
    expect(listed).toContain("dddddddddddd-s7");
  });

  it("outcome colours read right: earned statuses green, misses and wrong answers never green", () => {
    const c = outcomeColors(["wrong", "ok", "miss", "not_scorable", "premature", "hit", "abstain", "missed"]);
    const green = "#1a7f37";
    expect(c.get("ok")).toBe(green);
    expect(c.get("hit")).toBe(green);
    for (const bad of ["wrong", "miss", "missed", "premature"])
      expect(c.get(bad)).toMatch(/^#(cf222e|bc4c00|a40e26|fb8f44)$/);
    for (const other of ["not_scorable", "abstain"]) expect(c.get(other)).not.toBe(green);
    expect(new Set([...c.values()].filter((x) => x === green)).size).toBe(1);
  });
});
