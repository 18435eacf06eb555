import type { Command } from "commander";

/** The options of `relive data import` (commander's camel-cased flags). */
export type ImportOptions = Record<string, string | string[] | undefined> & { out: string };

const collect = (v: string, acc: string[] = []) => [...acc, v];

/** `relive data import`: every file importer behind one command, one source kind per call. */
export function registerImportCommand(data: Command): void {
  data
    .command("import <files...>")
    .description(
      "import raw source files into a new world (one source kind per call; default: generic JSONL news). " +
        "Rejected rows are listed with file:line (WARC: file:#record) and reason; exits 1 when the input is empty " +
        "or every row was rejected (no world is written then, nor ever a partial one)",
    )
    .requiredOption("-o, --out <dir>", "world directory to create (must not exist)")
    .option("-n, --name <name>", "world name (default: the source kind)")
    .option("--warc", "CC-NEWS WARC files (.warc or .warc.gz): articles by Readability, publish clock, de-duplication")
    .option(
      "--near-dup <jaccard>",
      "WARC: MinHash similarity of title + text at which an article is a near-duplicate (default 0.8)",
    )
    .option(
      "--polymarket",
      "Polymarket Gamma /markets or /events JSON, CLOB /prices-history JSON, or the markets + prices CSV shape; " +
        "derives breakpoints (breakout-news) and t_det labels (resolution-detect)",
    )
    .option(
      "--clob <token=file>",
      "Polymarket: a prices-history file and the CLOB token it is for (repeatable)",
      collect,
    )
    .option(
      "--bp <key=value>",
      "Polymarket breakpoint parameter (repeatable): grid_ms (0 = auto), lookback_steps 48, z 4, continue_z 1, " +
        "sigma_floor 0.01, min_move 0.05, min_gap_ms 43200000",
      collect,
    )
    .option("--price-delay-min <m>", "Polymarket: minutes from a price point to its visibility (default 10)")
    .option("--reddit", "Arctic Shift / Pushshift submissions and comments NDJSON, plain or .zst (needs the zstd CLI)")
    .option("--klines <venue>", "kline JSON responses of okx | kucoin (one instrument; pages in any order)")
    .option("--symbol <s>", "klines: instrument name stored in the world, e.g. BTC-USDT")
    .option("--bar <bar>", "klines: the files' bar (OKX 1m, 5m, 1H, 1Dutc …; KuCoin 1min, 5min, 1hour, 1day …)")
    .option("--resample-min <m>", "klines: resample to this many minutes (a multiple of the bar)")
    .option(
      "--events",
      "any JSONL event log (one JSON object a line) into an `event` stream; needs --time-field and --kind-field " +
        "(or --mapping); every other field is the event's payload, visible from its time",
    )
    .option(
      "--time-field <f>",
      "events: the time field (ISO-8601, a missing zone is UTC; or epoch s/ms: |v| < 1e11 is seconds)",
    )
    .option("--kind-field <f>", "events: the kind field (a string)")
    .option("--id-field <f>", "events: the id field (default: an opaque keyed hash of the row's content)")
    .option(
      "--mapping <file>",
      "events: a YAML/JSON mapping file {time_field, kind_field, id_field?} instead of the flags",
    )
    .action(async (files: string[], o: ImportOptions) => {
      const { runImport } = await import("./import-action.js");
      await runImport(files, o);
    });
}
