import { resolve } from "node:path";
import pc from "picocolors";
import { EventMapping } from "../ingest/event-mapping.js";
import { importEventsJsonl, readEventMapping } from "../ingest/events-jsonl.js";
import { ImportRefusedError, type ImportReport, topReasons } from "../ingest/import-report.js";
import { importKlines } from "../ingest/klines-world.js";
import type { RejectedRow } from "../ingest/kraken-ohlcvt.js";
import { importNewsJsonl } from "../ingest/news-jsonl.js";
import type { KlineVenue } from "../ingest/okx-kucoin-klines.js";
import { BreakpointParams } from "../ingest/polymarket-truth.js";
import { importPolymarket } from "../ingest/polymarket-world.js";
import { importRedditDumps } from "../ingest/reddit-ndjson.js";
import { importWarcNews } from "../ingest/warc-news.js";
import { ConfigError } from "../run/config.js";

function printRejected(rejected: readonly RejectedRow[], unit: string, max = 20): void {
  for (const r of rejected.slice(0, max)) process.stdout.write(`  ${r.file}:${unit}${r.line}: ${r.reason}\n`);
  if (rejected.length > max) process.stdout.write(`  … and ${rejected.length - max} more\n`);
  if (rejected.length > 0) {
    process.stdout.write("  top reasons:\n");
    for (const t of topReasons(rejected)) process.stdout.write(`    ${t.count} × ${t.reason}\n`);
  }
}

function printReport(kind: string, out: string, r: ImportReport, unit: string, ms: number): void {
  process.stdout.write(
    `imported ${r.imported} ${kind} row(s) of ${r.read} read into ${out} (rejected ${r.rejected.length}; ${(ms / 1000).toFixed(2)} s)\n`,
  );
  const extra = Object.entries(r.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  if (extra) process.stdout.write(`  ${extra}\n`);
  printRejected(r.rejected, unit);
}

function bpParams(list: string[] | undefined): Partial<BreakpointParams> {
  const out: Record<string, number> = {};
  const keys = Object.keys(BreakpointParams.shape);
  for (const kv of list ?? []) {
    const i = kv.indexOf("=");
    const k = kv.slice(0, i);
    const v = Number(kv.slice(i + 1));
    if (i <= 0 || !keys.includes(k) || !Number.isFinite(v))
      throw new ConfigError(`--bp ${kv}: expected KEY=NUMBER with KEY one of ${keys.join(", ")}`);
    out[k] = v;
  }
  const parsed = BreakpointParams.partial().safeParse(out);
  if (!parsed.success) throw new ConfigError(`--bp: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

type Source = "news-jsonl" | "warc" | "polymarket" | "reddit" | "klines" | "events";

/** The field mapping of `--events`: `--mapping FILE`, or the `--time-field/--kind-field/--id-field` flags. */
function eventMapping(o: ImportOptions): EventMapping {
  const flags = { time_field: o.timeField, kind_field: o.kindField, id_field: o.idField };
  const anyFlag = Object.values(flags).some((v) => v !== undefined);
  if (o.mapping !== undefined) {
    if (anyFlag)
      throw new ConfigError("--events: give either --mapping or the --time-field/--kind-field/--id-field flags");
    try {
      return readEventMapping(resolve(o.mapping as string));
    } catch (e) {
      throw new ConfigError(`--mapping: ${(e as Error).message}`);
    }
  }
  if (flags.time_field === undefined || flags.kind_field === undefined)
    throw new ConfigError("--events needs --time-field and --kind-field (or --mapping FILE)");
  const p = EventMapping.safeParse(
    Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as Record<string, string>,
  );
  if (!p.success) throw new ConfigError(`--events: ${p.error.issues[0]?.message}`);
  return p.data;
}

import type { ImportOptions } from "./import-command.js";

/** Runs one `relive data import` (loaded only when the command runs). */
export async function runImport(files: string[], o: ImportOptions): Promise<void> {
  const kinds = (["warc", "polymarket", "reddit", "klines", "events"] as const).filter((k) => o[k] !== undefined);
  if (kinds.length > 1)
    throw new ConfigError(`one source kind per import: got ${kinds.map((k) => `--${k}`).join(" and ")}`);
  const source: Source = kinds[0] ?? "news-jsonl";
  const out = resolve(o.out);
  const paths = files.map((f) => resolve(f));
  const name = (o.name as string | undefined) ?? source;
  const t0 = performance.now();
  try {
    switch (source) {
      case "news-jsonl": {
        const res = await importNewsJsonl(paths, out, { name });
        process.stdout.write(`imported ${res.accepted} articles into ${out} (rejected ${res.rejected.length})\n`);
        printRejected(res.rejected, "");
        return;
      }
      case "warc": {
        const j = o.nearDup === undefined ? undefined : Number(o.nearDup);
        if (j !== undefined && !(j > 0 && j <= 1)) throw new ConfigError("--near-dup: expected a similarity in (0, 1]");
        const r = await importWarcNews(paths, out, {
          name,
          ...(j === undefined ? {} : { nearDuplicateJaccard: j }),
        });
        return printReport("article", out, r, "#", performance.now() - t0);
      }
      case "polymarket": {
        const clob = ((o.clob as string[] | undefined) ?? []).map((kv) => {
          const i = kv.indexOf("=");
          if (i <= 0) throw new ConfigError(`--clob ${kv}: expected TOKEN=FILE`);
          return { token: kv.slice(0, i), file: resolve(kv.slice(i + 1)) };
        });
        const delay = o.priceDelayMin === undefined ? undefined : Number(o.priceDelayMin);
        if (delay !== undefined && !(delay >= 0)) throw new ConfigError("--price-delay-min: expected minutes ≥ 0");
        const r = await importPolymarket(paths, out, {
          name,
          clob,
          breakpoints: bpParams(o.bp as string[] | undefined),
          ...(delay === undefined ? {} : { priceDelayMs: Math.round(delay * 60_000) }),
        });
        return printReport("market", out, r, "", performance.now() - t0);
      }
      case "reddit": {
        const r = await importRedditDumps(paths, out, { name });
        return printReport("post/comment", out, r, "", performance.now() - t0);
      }
      case "events": {
        const r = await importEventsJsonl(paths, out, { name, mapping: eventMapping(o) });
        return printReport("event", out, r, "", performance.now() - t0);
      }
      case "klines": {
        const venue = o.klines as string;
        if (venue !== "okx" && venue !== "kucoin") throw new ConfigError(`--klines ${venue}: expected okx | kucoin`);
        if (!o.symbol || !o.bar) throw new ConfigError("--klines needs --symbol and --bar");
        const rs = o.resampleMin === undefined ? undefined : Math.round(Number(o.resampleMin) * 60_000);
        const r = await importKlines(venue as KlineVenue, paths, out, {
          name,
          symbol: o.symbol as string,
          bar: o.bar as string,
          ...(rs === undefined ? {} : { resampleMs: rs }),
        });
        return printReport("candle", out, r, "", performance.now() - t0);
      }
    }
  } catch (e) {
    if (e instanceof ImportRefusedError) {
      process.stderr.write(`${pc.red("error")}: ${e.message}\n`);
      printRejected(e.rejected, source === "warc" ? "#" : "");
      process.exitCode = 1;
      return;
    }
    throw e;
  }
}
