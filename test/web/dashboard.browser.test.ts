import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DashboardServer, startDashboard } from "../../src/web/serve.js";
import { type BigRun, writeBigRun } from "./big-run.js";
import { makeRealRun, type RealRun } from "./real-run.js";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`skipping the dashboard browser test: ${CHROMIUM} is not installed`);

describe.skipIf(!haveChromium)("dashboard in headless Chromium on a 10^6-event run", () => {
  let real: RealRun;
  let big: BigRun;
  let server: DashboardServer;
  let browser: Browser;
  let page: Page;
  const root = mkdtempSync(join(tmpdir(), "relive-web-browser-"));

  beforeAll(async () => {
    const runs = join(root, "runs");
    real = await makeRealRun(runs);
    big = writeBigRun(runs, { events: 1_000_000, days: 28, template: real });
    server = await startDashboard({ runs: [runs], port: 0 });
    browser = await chromium.launch({
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
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true }); // the 10^6-line ledger is 175 MB
  });

  const texts = (sel: string) => page.locator(sel).allTextContents();
  /**
   * Clicks a link or submit button (every one here leads to a new URL) and waits until that page
   * has finished loading: `click` may return before a long page is parsed, and reading its rows
   * then sees only part of them.
   */
  const follow = async (target: string | ReturnType<Page["locator"]>) => {
    const from = page.url();
    await (typeof target === "string" ? page.click(target) : target.click());
    await page.waitForURL((url) => url.href !== from, { waitUntil: "load" });
  };

  it("navigates list → run → timeline → ledger paging, jump to a time and a filter", async () => {
    // runs list, then a filter through the form
    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe("/runs");
    expect(await page.locator("#runs tbody tr").count()).toBe(2);
    const bigRow = page.locator(`tr[data-run="${big.runId}-s0"]`);
    expect(await bigRow.textContent()).toContain("1,000,000");
    expect(await bigRow.textContent()).toContain("digest_acc 0.7321");
    await page.selectOption('select[name="model"]', "openai:gpt-4.1-mini");
    await follow('form.bar button[type="submit"]');
    expect(await page.locator("#runs tbody tr").count()).toBe(1);
    expect(await page.textContent("#run-count")).toContain("1 of 2 runs");

    // the run page
    await follow(bigRow.locator("a").first());
    expect(new URL(page.url()).pathname).toBe(`/runs/${big.runId}-s0`);
    expect(await page.textContent("#primary")).toBe("0.7321");
    expect(await page.textContent("main")).toContain("1,000,000 ledger events");

    // the timeline: wakes and commitments in bins (too many for single marks), every outcome as a mark
    await follow('nav.tabs a:text("Timeline")');
    expect(new URL(page.url()).pathname).toBe(`/runs/${big.runId}-s0/timeline`);
    await page.waitForSelector("#timeline svg");
    expect(await page.locator("#timeline svg g.wakes rect").count()).toBeGreaterThan(600);
    expect(await page.locator("#timeline svg g.commitments rect").count()).toBeGreaterThan(600);
    expect(await page.locator("#timeline svg g.outcomes circle").count()).toBe(big.counts.outcome);
    expect(await page.textContent("main")).toContain("shown as per-bin counts");

    // the ledger: first page, next page
    await follow('nav.tabs a:text("Ledger")');
    expect(await page.textContent("#range")).toContain("lines 0–99 of 1,000,000");
    expect(await page.locator("#ledger tbody tr").count()).toBe(100);
    await follow(page.locator('a[rel="next"]').first());
    expect(await page.textContent("#range")).toContain("lines 100–199 of 1,000,000");
    expect((await texts("#ledger tbody tr td:first-child"))[0]!.trim()).toBe("100");

    // jump to a simulated time
    await page.fill("#at", "2026-03-15T12:00:00Z");
    await follow('form.bar button[type="submit"]');
    const at = Date.parse("2026-03-15T12:00:00Z");
    expect(await page.textContent("#jumped")).toMatch(/2026-03-15T12:00:00Z is at line [\d,]+/);
    const firstSeq = Number((await page.getAttribute("#ledger tbody tr", "data-seq")) ?? "-1");
    expect(firstSeq).toBeGreaterThan(400_000);
    const times = (
      await page.locator("#ledger tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-t")))
    ).map(Number);
    expect(times[0]).toBeGreaterThanOrEqual(at);
    expect(big.timeAt(Math.floor(firstSeq / 1000) * 1000)).toBeLessThan(at + 1);

    // filter by type: outcomes from that time on, then the last page of outcomes
    await page.check('input[name="type"][value="outcome"]');
    await follow('form.bar button[type="submit"]');
    const types = await page
      .locator("#ledger tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-type")));
    expect(types.length).toBe(100);
    expect(new Set(types)).toEqual(new Set(["outcome"]));
    await follow(page.locator('a[rel="last"]').first());
    const lastTypes = await page
      .locator("#ledger tbody tr")
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute("data-type"), Number(r.getAttribute("data-seq"))] as const),
      );
    expect(lastTypes.length).toBe(100);
    expect(lastTypes.every(([t]) => t === "outcome")).toBe(true);
    expect(lastTypes.at(-1)![1]).toBeGreaterThan(999_000);
  });
});
