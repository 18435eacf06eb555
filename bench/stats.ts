import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The q-quantile (nearest rank) of xs. */
export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

/** Writes bench/results/<name>.json. */
export function writeResult(name: string, value: unknown): string {
  const path = join(dirname(fileURLToPath(import.meta.url)), "results", `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

/** True when the module at `url` is the entry point (`tsx bench/x.ts`). */
export const isMain = (url: string) => process.argv[1] !== undefined && fileURLToPath(url) === process.argv[1];
