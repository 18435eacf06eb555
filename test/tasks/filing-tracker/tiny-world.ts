import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import type { BrokerEventRow, CompanyRow, FilingRow, XbrlFactRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

/** New York wall clock → UTC ms */
export const et = (iso: string) => DateTime.fromISO(iso, { zone: "America/New_York" }).toMillis();
export const utc = (iso: string) => Date.parse(iso);

/** 2026-03-02 (Mon) → 03-06 inclusive; DST starts 03-08 */
export const START = utc("2026-03-02T00:00:00Z");
export const END = utc("2026-03-07T00:00:00Z");

export const AAA = { cik: "0000000001", ticker: "AAA", name: "Alpha Anvil Inc." };
export const BBB = { cik: "0000000002", ticker: "BBB", name: "Beta Bridge Corp." };
export const CCC = { cik: "0000000003", ticker: "CCC", name: "Gamma Crane Co." };

export const T = {
  historyQ: et("2025-11-05T16:30:00"),
  aaa8k: et("2026-03-03T16:05:10"),
  aaaQ: et("2026-03-04T08:15:00"),
  aaa801: et("2026-03-04T12:00:00"),
  aaaQA: et("2026-03-05T10:00:00"),
  bbbAdd: utc("2026-03-04T00:00:00Z"),
  bbbK: et("2026-03-05T18:40:00"),
  bbb8kLate: et("2026-03-06T17:00:00"),
  cccDrop: utc("2026-03-03T00:00:00Z"),
  ccc8k: utc("2026-03-03T12:00:00Z"),
  bbbVisible: utc("2026-03-03T12:00:00Z"),
};

export const ACC = {
  historyQ: "0000000001-25-000010",
  aaa8k: "0000000001-26-000001",
  aaaQ: "0000000001-26-000002",
  aaa801: "0000000001-26-000003",
  aaaQA: "0000000001-26-000004",
  bbbK: "0000000002-26-000001",
  bbb8kLate: "0000000002-26-000002",
  ccc8k: "0000000003-26-000001",
};

const filing = (
  c: { cik: string },
  accession: string,
  form: string,
  items: string,
  at: number,
  report: string,
): FilingRow => ({
  cik: c.cik,
  accession,
  form,
  items,
  filed: DateTime.fromMillis(at, { zone: "America/New_York" }).toISODate() as string,
  accepted_at: at,
  report_date: report,
  visible_at: at,
});

const fact = (
  c: { cik: string },
  accn: string,
  at: number,
  concept: string,
  unit: string,
  start: string | null,
  end: string,
  val: number,
  fy: number,
  fp: string,
  form: string,
): XbrlFactRow => ({
  cik: c.cik,
  taxonomy: "us-gaap",
  concept,
  unit,
  start,
  end,
  val,
  accn,
  fy,
  fp,
  form,
  filed: DateTime.fromMillis(at, { zone: "America/New_York" }).toISODate() as string,
  visible_at: at,
});

/**
 * A hand-built filings world: AAA held throughout (8-K 2.02, a 10-Q with both revenue tags, an
 * 8-K 8.01 and a 10-Q/A that are not duties), BBB added on 03-04 (a 10-K whose only revenue tag is
 * RevenueFromContract…, and an 8-K whose deadline falls after the window), CCC dropped before its
 * 8-K. BBB's company row becomes visible only on 03-03.
 */
export function buildTinyWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-ft-world-")), "w");
  const b = WorldBuilder.create(dir, {
    name: "filing-tiny",
    window: { start: START, end: END },
    builder: "test",
    builder_version: "1",
  });
  const companies: CompanyRow[] = [
    { ...AAA, visible_at: utc("2025-01-01T00:00:00Z") },
    { ...BBB, visible_at: T.bbbVisible },
    { ...CCC, visible_at: utc("2025-01-01T00:00:00Z") },
  ];
  const filings: FilingRow[] = [
    filing(AAA, ACC.historyQ, "10-Q", "", T.historyQ, "2025-09-30"),
    filing(AAA, ACC.aaa8k, "8-K", "2.02,9.01", T.aaa8k, "2026-03-03"),
    filing(AAA, ACC.aaaQ, "10-Q", "", T.aaaQ, "2025-12-31"),
    filing(AAA, ACC.aaa801, "8-K", "8.01", T.aaa801, "2026-03-04"),
    filing(AAA, ACC.aaaQA, "10-Q/A", "", T.aaaQA, "2025-12-31"),
    filing(BBB, ACC.bbbK, "10-K", "", T.bbbK, "2025-12-31"),
    filing(BBB, ACC.bbb8kLate, "8-K", "2.02", T.bbb8kLate, "2026-03-06"),
    filing(CCC, ACC.ccc8k, "8-K", "2.02", T.ccc8k, "2026-03-03"),
  ];
  const facts: XbrlFactRow[] = [
    fact(AAA, ACC.historyQ, T.historyQ, "Revenues", "USD", "2025-07-01", "2025-09-30", 880_000_000, 2025, "FY", "10-Q"),
    fact(AAA, ACC.aaaQ, T.aaaQ, "Revenues", "USD", "2025-10-01", "2025-12-31", 1_000_000_000, 2026, "Q1", "10-Q"),
    fact(AAA, ACC.aaaQ, T.aaaQ, "Revenues", "USD", "2024-10-01", "2024-12-31", 900_000_000, 2026, "Q1", "10-Q"),
    fact(
      AAA,
      ACC.aaaQ,
      T.aaaQ,
      "RevenueFromContractWithCustomerExcludingAssessedTax",
      "USD",
      "2025-10-01",
      "2025-12-31",
      950_000_000,
      2026,
      "Q1",
      "10-Q",
    ),
    fact(
      AAA,
      ACC.aaaQ,
      T.aaaQ,
      "EarningsPerShareDiluted",
      "USD/shares",
      "2025-10-01",
      "2025-12-31",
      1.23,
      2026,
      "Q1",
      "10-Q",
    ),
    fact(
      AAA,
      ACC.aaaQ,
      T.aaaQ,
      "EarningsPerShareDiluted",
      "USD/shares",
      "2024-10-01",
      "2024-12-31",
      1.01,
      2026,
      "Q1",
      "10-Q",
    ),
    fact(
      BBB,
      ACC.bbbK,
      T.bbbK,
      "RevenueFromContractWithCustomerExcludingAssessedTax",
      "USD",
      "2025-01-01",
      "2025-12-31",
      5_000_000_000,
      2025,
      "FY",
      "10-K",
    ),
    fact(
      BBB,
      ACC.bbbK,
      T.bbbK,
      "EarningsPerShareDiluted",
      "USD/shares",
      "2025-01-01",
      "2025-12-31",
      4.56,
      2025,
      "FY",
      "10-K",
    ),
    fact(
      BBB,
      ACC.bbbK,
      T.bbbK,
      "EarningsPerShareDiluted",
      "USD/shares",
      "2025-10-01",
      "2025-12-31",
      1.1,
      2025,
      "FY",
      "10-K",
    ),
  ];
  const holding = (id: string, t: number, c: { cik: string; ticker: string }, action: string): BrokerEventRow => ({
    id,
    kind: "holding",
    t,
    payload: { cik: c.cik, ticker: c.ticker, action },
    visible_at: t,
  });
  const blotter: BrokerEventRow[] = [
    holding("bl-001", utc("2026-02-20T00:00:00Z"), AAA, "hold"),
    holding("bl-002", utc("2026-02-20T00:00:00Z"), CCC, "hold"),
    holding("bl-003", T.cccDrop, CCC, "drop"),
    holding("bl-004", T.bbbAdd, BBB, "add"),
  ];
  b.insert("company", companies);
  b.insert("filing", filings);
  b.insert("xbrl_fact", facts);
  b.insert("broker_event", blotter);
  b.finish();
  return dir;
}
