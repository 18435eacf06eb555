import { resolve } from "node:path";
import cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import pc from "picocolors";
import type { PullProgress } from "../ingest/pull/pull-context.js";
import { PullConfigError, runPull } from "../ingest/pull/run-pull.js";
import { PULL_SOURCES } from "../ingest/pull/sources.js";
import { ConfigError } from "../run/config.js";
import { defaultRawDir } from "../run/world-resolver.js";

const collect = (v: string, prev: string[]) => [...prev, v];
const rate = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number");
  return n;
};

/** `--base-url endpoint=URL` (or a bare URL for a source with one endpoint) → endpoint → URL */
function baseUrls(given: readonly string[], endpoints: readonly string[], source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of given) {
    const m = /^([a-z_]+)=(.+)$/.exec(g);
    if (m) out[m[1] as string] = m[2] as string;
    else if (endpoints.length === 1) out[endpoints[0] as string] = g;
    else throw new ConfigError(`${source}: --base-url ${g}: write ENDPOINT=URL (endpoints: ${endpoints.join(", ")})`);
  }
  return out;
}

/** A cli-progress bar on stderr whose total grows as the source discovers items. */
function progressBar(quiet: boolean): { progress: PullProgress; stop(): void } {
  if (quiet || !process.stderr.isTTY) return { progress: { grow: () => {}, tick: () => {} }, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: " {bar} {value}/{total} {label}", stream: process.stderr, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let total = 0;
  bar.start(0, 0, { label: "" });
  return {
    progress: {
      grow: (n) => {
        total += n;
        bar.setTotal(total);
      },
      tick: (label) => bar.increment(1, { label }),
    },
    stop: () => bar.stop(),
  };
}

const COMMON = new Set(["out", "baseUrl", "rate", "userAgent", "refresh", "quiet"]);

/** `relive data pull <source> …`: one subcommand per pull source, its options from the source. */
export function registerPullCommand(data: Command): void {
  const pull = data
    .command("pull")
    .description(
      "fetch a public source's raw files (resumable: re-running skips what is done; rate-limited; pull never imports)",
    );
  for (const s of PULL_SOURCES) {
    const endpoints = Object.entries(s.endpoints);
    const c = pull
      .command(s.name)
      .description(`${s.describe}. Endpoints: ${endpoints.map(([k, e]) => `${k} ${e.default} ($${e.env})`).join("; ")}`)
      .option("-o, --out <dir>", "raw data dir to write (default $RELIVE_RAW_DIR or ../shared/data/raw)")
      .option("--base-url <endpoint=url>", "override an endpoint's base URL (repeatable)", collect, [])
      .option(
        "--rate <n>",
        `requests per second (default ${s.defaultRate}${s.maxRate !== undefined ? `, at most ${s.maxRate}` : ""})`,
        rate,
      )
      .option(
        "--user-agent <ua>",
        `User-Agent header (default $RELIVE_PULL_USER_AGENT${s.contactUserAgent ? "; required: a name and contact e-mail" : ""})`,
      )
      .option("--refresh", "fetch everything again (a newer snapshot), ignoring what earlier runs did")
      .option("-q, --quiet", "no progress bar");
    for (const opt of s.options)
      if (opt.repeatable) c.option(opt.flags, opt.description, collect, []);
      else if (opt.default !== undefined) c.option(opt.flags, opt.description, opt.default);
      else c.option(opt.flags, opt.description);
    c.action(async (o: Record<string, unknown>) => {
      const options = Object.fromEntries(Object.entries(o).filter(([k]) => !COMMON.has(k)));
      const outDir = resolve((o.out as string | undefined) ?? defaultRawDir());
      const bar = progressBar(Boolean(o.quiet));
      try {
        const r = await runPull(s.name, options, {
          outDir,
          baseUrls: baseUrls(o.baseUrl as string[], Object.keys(s.endpoints), s.name),
          ...(o.rate !== undefined ? { rate: o.rate as number } : {}),
          ...(o.userAgent !== undefined ? { userAgent: o.userAgent as string } : {}),
          refresh: Boolean(o.refresh),
          progress: bar.progress,
          log: (m) => process.stderr.write(`${pc.dim(m)}\n`),
        });
        bar.stop();
        const mb = (r.counts.bytes / 1e6).toFixed(1);
        process.stdout.write(
          `pulled ${s.name} into ${outDir}: ${r.counts.fetched} fetched (${mb} MB), ${r.counts.skipped} already done, ` +
            `${r.counts.absent} not found (404)\n`,
        );
      } catch (e) {
        bar.stop();
        if (e instanceof PullConfigError) throw new ConfigError(e.message);
        throw new Error(`${(e as Error).message}\n(what is done is kept: run the same pull again to continue)`);
      }
    });
  }
}
