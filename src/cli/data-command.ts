import { join, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";

const keepCount = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
};

const mib = (b: number) => `${(b / 1_048_576).toFixed(1)} MiB`;

/** `relive data gc`: evicts cached synthetic worlds (least recently used first) and temp dirs of killed builds. */
export function registerDataGcCommand(data: Command): void {
  data
    .command("gc")
    .description(
      "evict cached synthetic worlds, least recently used first, keeping the N most recent; also removes temp dirs of killed builds",
    )
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .option("--keep <n>", "synthetic worlds to keep (most recently used)", keepCount, 4)
    .action(async (o: { cache: string; keep: number }) => {
      const { gcSynthWorlds } = await import("../synth/synth-world.js");
      const r = gcSynthWorlds(join(resolve(o.cache), "synth"), o.keep);
      for (const x of r.removed)
        process.stdout.write(
          `removed ${x.kind === "temp" ? "temp dir of a killed build" : "world"} ${x.path} (${mib(x.bytes)}${x.last_used ? `, last used ${x.last_used}` : ""})\n`,
        );
      process.stdout.write(
        `freed ${r.freed_bytes} bytes (${mib(r.freed_bytes)}) in ${r.removed.length} director${r.removed.length === 1 ? "y" : "ies"}; kept ${r.kept.length} world(s)\n`,
      );
    });
}
