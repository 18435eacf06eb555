import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { z } from "zod";
import { HOUR_MS } from "../common/time.js";
import { DIGEST_MIN_CANDIDATES, digestCandidateCounts } from "../synth/digest-check.js";
import type { RedditCommentRow, RedditPostRow, RedditRevealRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { type ImportReport, refuseIfEmpty, zodReason } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";

export const REDDIT_BUILDER = "ingest/reddit-ndjson";
export const REDDIT_BUILDER_VERSION = "1";
/** A post's 24 h cascade size is revealed this long after posting (tasks.md §3). */
export const REVEAL_DELAY_MS = 24 * HOUR_MS;
const BATCH = 2000;

/** `created_utc` drifts across dump eras: int (Arctic Shift), float, or a decimal string (Pushshift). */
const EpochSeconds = z.union([
  z.number().finite().nonnegative(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, "not a decimal epoch-seconds string")
    .transform(Number),
]);
const Author = z
  .string()
  .nullish()
  .transform((a) => a ?? "[deleted]");
const Text = z
  .string()
  .nullish()
  .transform((t) => t ?? "");
const Base36 = z.string().regex(/^[0-9a-z]+$/, "not a base-36 reddit id");

/** An Arctic Shift / Pushshift submission line (extra fields ignored). */
export const SubmissionLine = z.object({
  id: Base36,
  subreddit: z.string().min(1),
  author: Author,
  created_utc: EpochSeconds,
  title: z.string(),
  selftext: Text,
});

/** An Arctic Shift / Pushshift comment line (extra fields ignored). */
export const CommentLine = z.object({
  id: Base36,
  link_id: z.string().regex(/^t3_[0-9a-z]+$/, "not a t3_ submission fullname"),
  parent_id: z.string().regex(/^t[13]_[0-9a-z]+$/, "not a t1_/t3_ fullname"),
  author: Author,
  created_utc: EpochSeconds,
  body: Text,
});

/**
 * The lines of a dump file: plain NDJSON, or a `.zst` dump decompressed by the Debian `zstd -dc
 * --long=31` CLI through a pipe (Arctic Shift dumps use windows up to 2 GiB, which JS decoders
 * cannot hold). The child's exit status is checked after the last line; a failure throws with its
 * stderr. Bytes of the file (compressed, as on disk) feed `hash`.
 */
async function* dumpLines(file: string, hash: { update(b: Buffer): unknown }): AsyncGenerator<string> {
  const hashStream = createReadStream(file);
  const hashed = new Promise<void>((res, rej) => {
    hashStream.on("data", (c) => hash.update(c as Buffer));
    hashStream.on("end", () => res());
    hashStream.on("error", rej);
  });
  let input: Readable;
  let done: Promise<void> = Promise.resolve();
  if (file.endsWith(".zst")) {
    const child = spawn("zstd", ["-dc", "--long=31", "--", file], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    done = new Promise((res, rej) => {
      child.on("error", (e) =>
        rej(new Error(`cannot run zstd for ${file} (install the Debian zstd package): ${e.message}`)),
      );
      child.on("close", (code) =>
        code === 0 ? res() : rej(new Error(`zstd -dc --long=31 ${file} failed (exit ${code}): ${stderr.trim()}`)),
      );
    });
    input = child.stdout;
  } else input = createReadStream(file);
  const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) yield line;
  await done;
  await hashed;
}

interface PendingComment {
  row: RedditCommentRow;
  rootFull: string;
  file: string;
  line: number;
}

const ms = (sec: number) => Math.round(sec * 1000);

/**
 * Imports Arctic Shift / Pushshift Reddit dumps (submissions and comments NDJSON, plain or `.zst`,
 * in any mix; a line is a submission when it has `title`, a comment when it has `link_id`) into a
 * new world for popularity and daily-digest:
 * - `reddit_post` (id without `t3_`, visible at created_utc), `reddit_comment` (root = the
 *   submission id, parent = the submission id for a top-level comment or the parent comment id;
 *   visible at created_utc): the comment trees are rebuilt from `link_id` / `parent_id`;
 * - `reddit_reveal` per post: `descendants_24h` = comments created within 24 h of the post,
 *   visible at post + 24 h.
 * Rejected (file:line and reason): invalid JSON, schema failures, lines that are neither kind,
 * repeated ids (the first is kept), comments whose submission is not in the import, comments
 * created before their submission. A comment whose parent comment is missing keeps its parent id
 * (counted as `dangling_parents`). Window = first post → last post + 24 h.
 * Comments are held in memory until every file is read (their roots may come in a later file).
 * Counts include `digest_days_ready`: window days whose 12:00 UTC has the ≥ 10 daily-digest
 * candidates already past 50 comments that daily-digest needs (synth/digest-check.ts).
 */
export async function importRedditDumps(
  files: string[],
  targetDir: string,
  opts: { name: string },
): Promise<ImportReport> {
  for (const f of files) if (!existsSync(f)) throw new Error(`no such file: ${f}`);
  const builder = WorldBuilder.create(targetDir, {
    name: opts.name,
    window: { start: 0, end: 0 },
    builder: REDDIT_BUILDER,
    builder_version: REDDIT_BUILDER_VERSION,
  });
  try {
    const r = await importRedditDumpsInto(builder, files);
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** `importRedditDumps`'s rows written into `sink` (reddit_post, reddit_comment, reddit_reveal; the window first post → last post + 24 h). */
export async function importRedditDumpsInto(sink: WorldSink, files: string[]): Promise<Omit<ImportReport, "manifest">> {
  for (const f of files) if (!existsSync(f)) throw new Error(`no such file: ${f}`);
  const rejected: RejectedRow[] = [];
  const posts = new Map<string, number>(); // id -> created ms
  const comments: PendingComment[] = [];
  const commentIds = new Set<string>();
  let read = 0;
  let duplicates = 0;
  const perFile = new Map<string, { rows: number; rejected: number; sha: string }>();
  for (const file of files) {
    const hash = createHash("sha256");
    let lineNo = 0;
    let fileRows = 0;
    let fileRejected = 0;
    let batch: RedditPostRow[] = [];
    const reject = (reason: string) => {
      rejected.push({ file, line: lineNo, reason });
      fileRejected++;
    };
    for await (const line of dumpLines(file, hash)) {
      lineNo++;
      if (line.trim() === "") continue;
      read++;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        reject(`invalid JSON: ${(e as Error).message}`);
        continue;
      }
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        reject("not a JSON object");
        continue;
      }
      if ("title" in raw) {
        const p = SubmissionLine.safeParse(raw);
        if (!p.success) {
          reject(`submission: ${zodReason(p.error.issues)}`);
          continue;
        }
        const s = p.data;
        if (posts.has(s.id)) {
          duplicates++;
          reject(`duplicate submission id ${s.id} (the first is kept)`);
          continue;
        }
        const created = ms(s.created_utc);
        posts.set(s.id, created);
        batch.push({
          id: s.id,
          subreddit: s.subreddit,
          author: s.author,
          title: s.title,
          body: s.selftext,
          created_utc: created,
          visible_at: created,
        });
        fileRows++;
        if (batch.length >= BATCH) {
          sink.insertValidated("reddit_post", batch);
          batch = [];
        }
      } else if ("link_id" in raw || "parent_id" in raw) {
        const p = CommentLine.safeParse(raw);
        if (!p.success) {
          reject(`comment: ${zodReason(p.error.issues)}`);
          continue;
        }
        const c = p.data;
        if (commentIds.has(c.id)) {
          duplicates++;
          reject(`duplicate comment id ${c.id} (the first is kept)`);
          continue;
        }
        commentIds.add(c.id);
        const created = ms(c.created_utc);
        const root = c.link_id.slice(3);
        comments.push({
          row: {
            id: c.id,
            root,
            parent: c.parent_id.slice(3),
            created_utc: created,
            author: c.author,
            body: c.body,
            visible_at: created,
          },
          rootFull: c.link_id,
          file,
          line: lineNo,
        });
        fileRows++;
      } else reject("neither a submission (no `title`) nor a comment (no `link_id`)");
    }
    if (batch.length > 0) sink.insertValidated("reddit_post", batch);
    perFile.set(file, { rows: fileRows, rejected: fileRejected, sha: hash.digest("hex") });
  }
  // comment trees: keep comments whose submission was imported and which do not predate it
  const kept: RedditCommentRow[] = [];
  const within24 = new Map<string, number>();
  let dangling = 0;
  for (const c of comments) {
    const postCreated = posts.get(c.row.root);
    const rej = (reason: string) => {
      rejected.push({ file: c.file, line: c.line, reason });
      const f = perFile.get(c.file);
      if (f) {
        f.rows--;
        f.rejected++;
      }
    };
    if (postCreated === undefined) {
      rej(`comment ${c.row.id}: its submission ${c.rootFull} is not in the import (no tree to attach it to)`);
      continue;
    }
    if (c.row.created_utc < postCreated) {
      rej(`comment ${c.row.id}: created before its submission ${c.rootFull}`);
      continue;
    }
    if (c.row.parent !== c.row.root && !commentIds.has(c.row.parent)) dangling++;
    kept.push(c.row);
    if (c.row.created_utc <= postCreated + REVEAL_DELAY_MS)
      within24.set(c.row.root, (within24.get(c.row.root) ?? 0) + 1);
  }
  for (let i = 0; i < kept.length; i += BATCH) sink.insertValidated("reddit_comment", kept.slice(i, i + BATCH));
  const reveals: RedditRevealRow[] = [];
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  for (const [id, created] of posts) {
    reveals.push({ post: id, descendants_24h: within24.get(id) ?? 0, visible_at: created + REVEAL_DELAY_MS });
    if (created < minT) minT = created;
    if (created > maxT) maxT = created;
  }
  for (const [file, f] of perFile) sink.addSource({ path: file, sha256: f.sha, rows: f.rows, rejected: f.rejected });
  refuseIfEmpty("submissions", read, posts.size, rejected);
  sink.insertValidated("reddit_reveal", reveals);
  const window = { start: minT, end: maxT + REVEAL_DELAY_MS };
  sink.setWindow(window);
  // daily-digest needs ≥ 10 candidates past 50 comments at each day's 12:00 (tasks.md §4): report how many days have them
  const postTimes: RedditPostRow[] = [...posts].map(([id, created]) => ({
    id,
    subreddit: "",
    author: "",
    title: "",
    body: "",
    created_utc: created,
    visible_at: created,
  }));
  const digestDays = digestCandidateCounts(
    { reddit_post: postTimes, reddit_comment: kept, reddit_reveal: reveals },
    window.start,
    window.end,
  );
  return {
    read,
    imported: posts.size + kept.length,
    rejected,
    counts: {
      posts: posts.size,
      comments: kept.length,
      reveals: reveals.length,
      duplicates,
      dangling_parents: dangling,
      posts_reaching_50: [...within24.values()].filter((n) => n >= 50).length,
      digest_days: digestDays.length,
      digest_days_ready: digestDays.filter((d) => d.count >= DIGEST_MIN_CANDIDATES).length,
    },
  };
}
