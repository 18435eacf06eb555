import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { PullContext, type PullCounts, type PullProgress } from "./pull-context.js";
import { PullHttp, type PullHttpOptions } from "./pull-http.js";
import type { AnyPullSource } from "./pull-source.js";
import { PullState } from "./pull-state.js";
import { PULL_SOURCES } from "./sources.js";

/** A refused pull configuration (unknown source, bad option, missing contact User-Agent, rate above the terms). */
export class PullConfigError extends Error {}

export const DEFAULT_USER_AGENT = "relive-data-pull/0.1";
/** an e-mail address somewhere in the User-Agent (the SEC asks for "Name contact@example.com") */
const CONTACT = /[^\s@<>()]+@[^\s@<>()]+\.[A-Za-z]{2,}/;

export interface PullRunOptions {
  /** where raw files go (the importers' raw dir) and where the state lives (`.pull-state/`) */
  outDir: string;
  /** endpoint → base URL (over `RELIVE_PULL_<ENDPOINT>_URL`, over the default) */
  baseUrls?: Readonly<Record<string, string>>;
  env?: Readonly<Record<string, string | undefined>>;
  /** requests per second (default: the source's) */
  rate?: number;
  /** default `$RELIVE_PULL_USER_AGENT`, else `relive-data-pull/0.1` (refused for EDGAR) */
  userAgent?: string;
  progress?: PullProgress;
  log?: (msg: string) => void;
  /** fetch every item again (a newer snapshot of the same plan), overwriting the files */
  refresh?: boolean;
  /** test hooks and retry tuning (clock, sleep, backoff, retries) */
  http?: Omit<PullHttpOptions, "rate" | "userAgent">;
}

export interface PullResult {
  source: string;
  counts: PullCounts;
  statePath: string;
  baseUrls: Record<string, string>;
}

export function pullSource(name: string): AnyPullSource {
  const s = PULL_SOURCES.find((x) => x.name === name);
  if (!s)
    throw new PullConfigError(`unknown pull source "${name}"; known: ${PULL_SOURCES.map((x) => x.name).join(", ")}`);
  return s;
}

/** The base URL of each endpoint of a source: flag, else env, else default; must be http(s). */
export function resolveBaseUrls(
  s: AnyPullSource,
  given: Readonly<Record<string, string>> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  for (const k of Object.keys(given))
    if (!(k in s.endpoints))
      throw new PullConfigError(
        `${s.name}: unknown endpoint "${k}" in --base-url; its endpoints: ${Object.keys(s.endpoints).join(", ")}`,
      );
  const out: Record<string, string> = {};
  for (const [k, e] of Object.entries(s.endpoints)) {
    const url = given[k] ?? env[e.env] ?? e.default;
    if (!/^https?:\/\/[^/]/.test(url)) throw new PullConfigError(`${s.name}: base URL of ${k} is not http(s): ${url}`);
    out[k] = url;
  }
  return out;
}

/**
 * Runs one pull: validates the source's options, applies its fair-use rules (rate cap, contact
 * User-Agent), then walks its plan. Resumable: `.pull-state/<source>.json` under `outDir` lists
 * what is done; a re-run skips it. Pull only fetches raw files; it never builds a world.
 */
export async function runPull(name: string, options: unknown, o: PullRunOptions): Promise<PullResult> {
  const s = pullSource(name);
  const parsed = s.schema.safeParse(options);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new PullConfigError(
      `${name}: ${i?.path.length ? `${i.path.join(".")}: ` : ""}${i?.message ?? "bad options"}`,
    );
  }
  const env = o.env ?? process.env;
  const rate = o.rate ?? s.defaultRate;
  if (!Number.isFinite(rate) || rate <= 0) throw new PullConfigError(`${name}: --rate must be a positive number`);
  if (s.maxRate !== undefined && rate > s.maxRate)
    throw new PullConfigError(
      `${name}: --rate ${rate} is above the source's limit of ${s.maxRate} requests per second`,
    );
  const userAgent = (o.userAgent ?? env.RELIVE_PULL_USER_AGENT ?? "").trim();
  if (s.contactUserAgent && !CONTACT.test(userAgent))
    throw new PullConfigError(
      `${name}: the SEC requires a User-Agent naming you with a contact e-mail ` +
        `(e.g. --user-agent "Jane Doe jane.doe@example.com", or RELIVE_PULL_USER_AGENT); refusing to pull without one`,
    );
  const baseUrls = resolveBaseUrls(s, o.baseUrls, env);
  const outDir = resolve(o.outDir);
  mkdirSync(outDir, { recursive: true });
  const state = PullState.open(outDir, name);
  const http = new PullHttp({ ...o.http, rate, userAgent: userAgent || DEFAULT_USER_AGENT });
  const ctx = new PullContext(
    outDir,
    http,
    state,
    baseUrls,
    o.progress ?? { grow: () => {}, tick: () => {} },
    o.log ?? (() => {}),
    o.refresh ?? false,
  );
  await s.run(ctx, parsed.data);
  return { source: name, counts: ctx.counts, statePath: state.path, baseUrls };
}
