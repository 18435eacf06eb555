import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { chromium } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { registerReportCommand } from "../../src/cli/report-command.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { type BuiltReport, buildReport } from "../../src/report/build-report.js";
import { ReportDataSchema } from "../../src/report/report-data.js";
import { ConfigError } from "../../src/run/config.js";
import type { Results } from "../../src/run/results.js";
import { freshRunsDir, options, run } from "../run/helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const TRIGGERS = ["sleep", "cron"] as const;

interface Made {
  dir: string;
  results: Results;
}

/** A real grid: 2 tasks × 3 scripted policies × triggers × seeds, plus one ablation axis per task. */
async function makeGrid(runsDir: string): Promise<Made[]> {
  const o = options(runsDir);
  const made: Made[] = [];
  const go = async (cfg: Parameters<typeof run>[0]) => {
    const r = await run(cfg, o);
    made.push({ dir: r.runDir, results: r.results });
  };
  for (const model of ["top-comments", "silent", "oracle"])
    for (const trigger of TRIGGERS)
      for (const seed of [0, 1, 2])
        await go({ task: "daily-digest", ...WINDOW, seed, agent: { model: `scripted:${model}`, trigger } });
  for (const seed of [0, 1, 2])
    await go({
      task: "daily-digest",
      ...WINDOW,
      seed,
      agent: { model: "scripted:top-comments", trigger: "sleep", deadline_guard: true },
    });
  // price-check is slower to run: every policy under sleep, only median-poll under cron too
  // (an unbalanced model × trigger design)
  for (const model of ["median-poll", "silent", "oracle"])
    for (const seed of [0, 1])
      await go({ task: "price-check", ...WINDOW, seed, agent: { model: `scripted:${model}`, trigger: "sleep" } });
  for (const seed of [0, 1])
    await go({ task: "price-check", ...WINDOW, seed, agent: { model: "scripted:median-poll", trigger: "cron" } });
  // a budget too small for the window: the wallet runs dry part-way (an ablation axis with exhaustion)
  for (const seed of [0, 1])
    await go({
      task: "price-check",
      ...WINDOW,
      seed,
      budget_usd: 0.03,
      agent: { model: "scripted:median-poll", trigger: "sleep" },
    });
  return made;
}

describe("relive report on a real grid of runs", () => {
  let runsDir: string;
  let made: Made[];
  let built: BuiltReport;
  const out = mkdtempSync(join(tmpdir(), "relive-report-out-"));

  beforeAll(async () => {
    runsDir = freshRunsDir();
    made = await makeGrid(runsDir);
    built = await buildReport({ inputs: [runsDir] });
  });

  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const primaries = (f: (m: Made) => boolean) => made.filter(f).map((m) => m.results.performance.primary.value!);

  it("aggregates cells, ANOVA, deltas, exhaustion and rank consistency from the runs", async () => {
    const { data } = built;
    expect(() => ReportDataSchema.parse(data)).not.toThrow();
    expect(data.runs_total).toBe(made.length);
    expect(data.experiments.map((e) => [e.task, e.runs])).toEqual([
      ["daily-digest", 21],
      ["price-check", 10],
    ]);
    const [digest, price] = data.experiments as [(typeof data.experiments)[0], (typeof data.experiments)[0]];

    // daily-digest: binary primary, one ablation axis (deadline guard), 3 models × 2 triggers + 1 cell
    expect(digest.binary).toBe(true);
    expect(digest.axes).toEqual([{ path: "agent.deadline_guard", values: ["false", "true"], baseline: "false" }]);
    expect(digest.cells).toHaveLength(7);
    for (const c of digest.cells) {
      const own = primaries(
        (m) =>
          m.results.task === "daily-digest" &&
          m.results.agent === c.model &&
          m.results.trigger === c.trigger &&
          m.dir.length > 0 &&
          c.run_dirs.includes(m.dir),
      );
      expect(c.n).toBe(own.length);
      expect(c.mean).toBeCloseTo(mean(own), 12);
      expect(c.pass_k).toHaveLength(own.length);
    }
    const silent = digest.cells.find((c) => c.model === "scripted:silent" && c.trigger === "sleep")!;
    expect(silent).toMatchObject({ mean: 0, sd: 0, spend_mean_usd: 0, score_per_usd: null });
    expect(silent.ci95).toEqual({ lo: 0, hi: 0 });

    // ANOVA on the deadline_guard=false stratum: 3 models × 2 triggers × 3 seeds, balanced
    const an = digest.anova.find((a) => a.stratum["agent.deadline_guard"] === "false")!;
    expect(an).toMatchObject({ n: 18, balanced: true, total_df: 17 });
    const term = (s: string) => an.terms.find((t) => t.source === s)!;
    expect(term("model").df).toBe(2);
    expect(term("residual (seed)")).toMatchObject({ ss: 0, df: 12 }); // scripted policies: seeds agree
    const shares = an.terms.reduce((s, t) => s + (t.share ?? 0), 0);
    if (!an.no_variance) expect(shares).toBeCloseTo(1, 9);
    // classical SS_model from the model means (balanced)
    const scoresBy = (model: string) =>
      primaries((m) => m.results.task === "daily-digest" && m.results.agent === model && !guarded(m));
    const guarded = (m: Made) =>
      JSON.parse(readFileSync(join(m.dir, "config.json"), "utf8")).config.agent.deadline_guard;
    const models = ["scripted:oracle", "scripted:silent", "scripted:top-comments"];
    const grand = mean(models.flatMap(scoresBy));
    const ssModel = models.reduce((s, m) => s + 6 * (mean(scoresBy(m)) - grand) ** 2, 0);
    expect(term("model").ss).toBeCloseTo(ssModel, 10);
    if (ssModel > 0) expect(term("model")).toMatchObject({ f: "inf", p: 0 });

    // paired deltas for the deadline guard: 3 seed-matched pairs (top-comments, sleep)
    const [dg] = digest.deltas;
    expect(dg).toMatchObject({ axis: "agent.deadline_guard", baseline: "false", level: "true", pairs: 3 });

    // price-check: the budget axis, baseline 20 (most runs) vs 0.03, with the wallet running dry
    expect(price.binary).toBe(false);
    expect(price.cells.every((c) => c.pass_k === null)).toBe(true);
    const budget = price.deltas.find((d) => d.axis === "budget_usd")!;
    expect(budget).toMatchObject({ baseline: "20", level: "0.03", pairs: 2 });
    const poor = made.filter((m) => m.results.task === "price-check" && m.results.resources.budget_usd === 0.03);
    const rich = made.filter(
      (m) =>
        m.results.task === "price-check" &&
        m.results.resources.budget_usd === 20 &&
        m.results.agent === "scripted:median-poll" &&
        m.results.trigger === "sleep",
    );
    const pv = (ms: Made[]) => mean(ms.map((m) => m.results.performance.primary.value!));
    const spend = (ms: Made[]) => mean(ms.map((m) => m.results.resources.spent_usd));
    expect(budget.mean_delta).toBeCloseTo(pv(poor) - pv(rich), 12);
    expect(budget.cost_multiplier).toBeCloseTo(spend(poor) / spend(rich), 12);
    expect(budget.mean_delta!).toBeLessThan(0);

    // window survived of the exhausted runs, checked against the ledger read independently
    const exhaustedCell = price.cells.find((c) => c.axes.budget_usd === "0.03")!;
    expect(exhaustedCell.exhausted).toBe(2);
    for (const m of poor) {
      expect(m.results.flags.budget_exhausted).toBe(true);
      const firstUnpaid = readLedger(join(m.dir, "ledger.jsonl")).find(
        (e) => e.type === "llm_rejected" || (e.type === "tool_call" && e.status === "unpaid"),
      )!;
      const expected =
        m.results.timing.anytime.filter((a) => Date.parse(a.t) <= firstUnpaid.t).length /
        m.results.timing.anytime.length;
      const row = data.runs.find((r) => r.dir === m.dir)!;
      expect(row).toMatchObject({ exhausted: true, window_survived_source: "ledger" });
      expect(row.window_survived).toBeCloseTo(expected, 12);
      expect(expected).toBeLessThan(1);
    }
    expect(exhaustedCell.window_survived_mean).toBeCloseTo(
      mean(data.runs.filter((r) => r.exhausted).map((r) => r.window_survived!)),
      12,
    );

    // rank consistency: silent and oracle run on both tasks; the task-specific policies are left out
    const rc = data.rank_consistency;
    expect(rc.models).toEqual(["scripted:oracle", "scripted:silent"]);
    expect(rc.excluded_models).toEqual(["scripted:median-poll", "scripted:top-comments"]);
    expect(rc.judges.map((j) => j.task)).toEqual(["daily-digest", "price-check"]);
    expect(rc.w).not.toBeNull();

    // price-check's model × trigger design is unbalanced (cron only for median-poll)
    const pa = price.anova.find((a) => a.stratum.budget_usd === "20")!;
    expect(pa).toMatchObject({
      n: 8,
      balanced: false,
      models: ["scripted:median-poll", "scripted:oracle", "scripted:silent"],
    });
    expect(pa.terms.find((t) => t.source === "model×trigger")!.df).toBe(0);

    expect(data.pooled_seed_sd_all.map((p) => p.trigger).sort()).toEqual(["cron", "sleep"]);

    // the headline: cron against sleep, paired on model, replicate and axes
    const [dt] = digest.trigger_deltas;
    expect(dt).toMatchObject({ axis: "trigger", baseline: "sleep", level: "cron", pairs: 9 });
    const byTrigger = (t: string) =>
      primaries((m) => m.results.task === "daily-digest" && m.results.trigger === t && !guarded(m));
    expect(dt!.mean_delta).toBeCloseTo(mean(byTrigger("cron")) - mean(byTrigger("sleep")), 12);
    const [pt] = price.trigger_deltas;
    expect(pt).toMatchObject({ baseline: "sleep", level: "cron", pairs: 2 });
    // window survived over every run: cells that never ran dry survived the whole window
    expect(price.cells.filter((c) => c.exhausted === 0).every((c) => c.window_survived_mean === 1)).toBe(true);
    // capability slices from the tasks' axes recorded in results.json
    expect(digest.task_axes).toEqual({ time_sensitivity: "high (deadline)", reasoning: "low", recurrence: "daily" });
    const low = data.capability_slices.find((c) => c.axis === "reasoning" && c.value === "low")!;
    expect(low.tasks).toEqual(["daily-digest", "price-check"]);
    expect(low.by_trigger.map((t) => t.trigger)).toEqual(["sleep", "cron"]);
    expect(built.html).toContain("Headline: does the trigger matter?");
    expect(built.html).not.toMatch(/\d\.?\d*e[+-]\d/);
  });

  it("is deterministic: the same runs give byte-identical HTML and JSON", async () => {
    const again = await buildReport({ inputs: [runsDir] });
    expect(again.html).toBe(built.html);
    expect(JSON.stringify(again.data)).toBe(JSON.stringify(built.data));
  });

  const hasChromium = existsSync(CHROMIUM);
  if (!hasChromium) console.warn(`skipping the browser test: ${CHROMIUM} is absent`);

  it.skipIf(!hasChromium)("renders every chart in headless Chromium without scripts or network", async () => {
    const htmlPath = join(out, "report.html");
    writeFileSync(htmlPath, built.html);
    const res = built;
    const html = built.html;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*"(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?https?:/i);
    const expectedCharts = res.charts.reduce((s, c) => s + c.ids.length, 0);
    // 2 experiments × (score, frontier, anytime, wakes, wake count, cost, score per dollar); neither task dates reactions
    expect(expectedCharts).toBe(14);
    expect(res.charts.every((c) => c.missing.some((m) => m.startsWith("Median reaction time")))).toBe(true);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      const foreign: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      await page.goto(`file://${htmlPath}`, { waitUntil: "load" });
      const charts = await page.evaluate(() =>
        [...document.querySelectorAll("figure.chart > svg")].map((svg) => {
          const r = svg.getBoundingClientRect();
          const marks = svg.querySelectorAll(
            "g[class*='role-mark'] path, g[class*='role-mark'] line, g[class*='role-mark'] rect, g[class*='role-mark'] circle",
          ).length;
          return { id: svg.parentElement!.id, w: r.width, h: r.height, marks };
        }),
      );
      expect(charts.map((c) => c.id)).toEqual(res.charts.flatMap((c) => c.ids));
      for (const c of charts) {
        expect(c.w, c.id).toBeGreaterThan(100);
        expect(c.h, c.id).toBeGreaterThan(50);
        expect(c.marks, c.id).toBeGreaterThan(0);
      }
      expect(await page.locator("svg").count()).toBe(expectedCharts);
      expect(await page.locator("table").count()).toBeGreaterThan(10);
      const shot = join(out, "report.png");
      await page.locator("#e0-score").scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  const cli = async (...args: string[]) => {
    const program = new Command().exitOverride();
    program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    registerReportCommand(program);
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      lines.push(String(s));
      return true;
    }) as typeof process.stdout.write;
    try {
      await program.parseAsync(["node", "relive", "report", ...args]);
    } finally {
      process.stdout.write = write;
    }
    return lines.join("");
  };

  it("CLI: writes HTML and JSON, refuses to pool differing versions, names bad files", async () => {
    const html = join(out, "cli.html");
    const json = join(out, "cli.json");
    const said = await cli(runsDir, "--out", html, "--json", json, "--baseline", "budget_usd=20");
    expect(said).toContain(`wrote ${html} (31 runs, 2 experiment(s), 12 cells, 14 charts)`);
    const data = ReportDataSchema.parse(JSON.parse(readFileSync(json, "utf8")));
    expect(data.experiments[1]!.axes[0]).toMatchObject({ path: "budget_usd", baseline: "20" });

    // a run re-scored under another scorer version is a different experiment
    const mixed = mkdtempSync(join(tmpdir(), "relive-report-mixed-"));
    const src = made.filter((m) => m.results.task === "daily-digest").slice(0, 2);
    for (const [i, m] of src.entries()) cpSync(m.dir, join(mixed, `run${i}`), { recursive: true });
    const rp = join(mixed, "run1", "results.json");
    const r = JSON.parse(readFileSync(rp, "utf8"));
    writeFileSync(rp, JSON.stringify({ ...r, scorer_version: "daily-digest-scorer/99" }));
    const refusedOut = join(out, "refused.html");
    const refused = cli(mixed, "--out", refusedOut);
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/scorer_version daily-digest-scorer\/99: 1 run\(s\)/);
    expect(existsSync(refusedOut)).toBe(false);
    expect(await cli(mixed, "--out", refusedOut, "--pool-versions")).toContain("(2 runs, 1 experiment(s)");
    const pooled = readFileSync(refusedOut, "utf8");
    expect(pooled).toContain("daily-digest-scorer/99");
    expect(pooled).toContain("(pooled)");

    // a bad results.json is named, with what is wrong
    writeFileSync(join(mixed, "run0", "results.json"), JSON.stringify({ ...r, seed: "zero" }));
    await expect(cli(mixed, "--out", join(out, "bad.html"))).rejects.toThrow(/run0\/results\.json: seed: /);
    await expect(cli(mixed, "--out", join(out, "bad.html"), "--baseline", "nope")).rejects.toThrow(/<axis>=<value>/);
    await expect(cli(runsDir, "--out", join(out, "bad.html"), "--baseline", "feedback=oracle")).rejects.toThrow(
      /--baseline names feedback, which does not vary between the runs; varying axes: agent.deadline_guard, budget_usd/,
    );
    expect(existsSync(join(out, "bad.html"))).toBe(false);
  });

  it("CLI: --help documents every option", () => {
    const program = new Command();
    registerReportCommand(program);
    const help = program.commands.find((c) => c.name() === "report")!.helpInformation();
    for (const flag of [
      "<runs...>",
      "--out",
      "--json",
      "--pool-versions",
      "--baseline",
      "--title",
      "--timeline-runs",
      "--timeline-wakes",
    ])
      expect(help).toContain(flag);
  });
});
