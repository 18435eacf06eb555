import { z } from "zod";
import { HOUR_MS, MINUTE_MS, parseIsoInstant } from "../../common/time.js";
import { runSteps, type StepScript } from "../policy-steps.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import { PopularityParams } from "./params.js";
import { PostFacts } from "./post-facts.js";
import { horizonMs } from "./recommend-rule.js";
import { RECOMMEND_TOOL, RECOMMENDATIONS_TOOL } from "./recommend-tools.js";

/** The parts of `recommendations()` the policies read (validated: a policy trusts no shape blindly). */
const Status = z.object({
  run_start: z.string(),
  cap: z.object({ remaining: z.number().int().nonnegative() }),
  pending: z.array(z.object({ root_id: z.string() })),
});
type Status = z.infer<typeof Status>;

const PostsPage = z.object({
  posts: z.array(z.object({ id: z.string(), created_utc: z.number(), num_comments: z.number() })),
});

async function status(api: PolicyApi): Promise<Status> {
  const r = await api.call(RECOMMENDATIONS_TOOL, {});
  if (!r.ok) throw new Error(`${RECOMMENDATIONS_TOOL} failed: ${r.error}`);
  return Status.parse(r.value);
}

/** the first multiple of `stepMs` strictly after `now` */
export const nextMultiple = (now: number, stepMs: number) => (Math.floor(now / stepMs) + 1) * stepMs;

/** Floor: never recommends (tw_f1 0). */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never recommends (the floor: tw_f1 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/** Settings of the early-velocity forecaster (policy constants, not task parameters). */
export interface VelocitySettings {
  pollMinutes: number;
  lookbackHours: number;
  minVelocityPerHour: number;
  minComments: number;
}

export const VELOCITY: Readonly<VelocitySettings> = {
  /** poll period */
  pollMinutes: 10,
  /** posts younger than this are considered */
  lookbackHours: 2,
  /** recommend when comments per hour since posting reach this ... */
  minVelocityPerHour: 30,
  /** ... and at least this many comments are visible */
  minComments: 8,
} as const;

/**
 * One wake of the no-LLM early-velocity forecaster (the task's "reference ceiling"), as a step
 * script (the scripted agent and the LLM-agent tests run the same calls), using only agent-visible
 * tools: it reads its cap status (free) and, when a slot is free, lists the posts of the last 2
 * hours sorted by visible comments (one priced call), estimates each post's velocity (visible
 * comments / age in hours) and recommends, fastest first, the posts with ≥ 8 comments and ≥ 30
 * comments per hour that it has not recommended yet, while slots remain.
 */
export function* velocitySteps(now: number, v: Readonly<VelocitySettings> = VELOCITY): StepScript {
  const st = yield { tool: RECOMMENDATIONS_TOOL, args: {} };
  if (!st.ok) throw new Error(`${RECOMMENDATIONS_TOOL} failed: ${st.error}`);
  const s = Status.parse(st.value);
  if (s.cap.remaining === 0) return;
  const runStart = parseIsoInstant(s.run_start);
  const page = yield {
    tool: "list_posts",
    args: { since: Math.max(runStart, now - v.lookbackHours * HOUR_MS), sort: "comments", order: "desc" },
  };
  if (!page.ok) return;
  const done = new Set(s.pending.map((r) => r.root_id));
  const picks = PostsPage.parse(page.value)
    .posts.filter((p) => !done.has(p.id) && p.created_utc < now && p.num_comments >= v.minComments)
    .map((p) => ({ id: p.id, v: p.num_comments / ((now - p.created_utc) / HOUR_MS) }))
    .filter((x) => x.v >= v.minVelocityPerHour)
    .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1));
  let left = s.cap.remaining;
  for (const x of picks) {
    if (left === 0) break;
    const r = yield { tool: RECOMMEND_TOOL, args: { root_id: x.id } };
    if (r.ok) left--;
  }
}

export const velocityNextWake = (now: number) => nextMultiple(now, VELOCITY.pollMinutes * MINUTE_MS);

/**
 * The velocity forecaster with the given settings. Its parameter draw (Best-of-N branches k ≥ 1,
 * `ReferencePolicy.draw`): the poll period stays 10 min (the cron entry), the lookback is 1–4 h
 * (uniform), the comment floor 3–45 and the velocity threshold 8–240 comments/h (log-uniform), from
 * the branch's stream (src/common/random.ts), so branches differ clearly in what they recommend.
 */
export function velocityPolicyWith(v: Readonly<VelocitySettings>, name = "velocity"): ReferencePolicy {
  const p = statelessPolicy({
    name,
    description:
      `Every ${v.pollMinutes} min: list_posts(since = now − ${v.lookbackHours} h, sort = comments) and recommend ` +
      `posts with ≥ ${v.minComments} comments arriving at ≥ ${v.minVelocityPerHour}/h since posting, fastest first, while the cap allows.`,
    async act(api) {
      await runSteps(api, velocitySteps(api.now(), v));
    },
    nextWake: velocityNextWake,
    cron: [`*/${v.pollMinutes} * * * *`],
  });
  return {
    ...p,
    draw: (rng) =>
      velocityPolicyWith(
        {
          pollMinutes: VELOCITY.pollMinutes,
          lookbackHours: 1 + rng.int(4),
          // log-uniform: 3–45 comments, 8–240 comments/h
          minComments: Math.round(3 * 15 ** rng.next()),
          minVelocityPerHour: Math.round(8 * 30 ** rng.next()),
        },
        name,
      ),
  };
}

export const velocityPolicy: ReferencePolicy = velocityPolicyWith(VELOCITY);

/** the oracle's wake grid */
export const ORACLE_STEP_MS = MINUTE_MS;

/**
 * Oracle (tests and calibration only; reads the untouched world): cap-limited, it recommends every
 * tail post at its first wake after the post's creation (wakes every minute, so the delay is under a
 * minute), earliest first, while a slot is free. It never spends a slot on an older post.
 */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  description:
    "Reads the untouched world: every minute, recommends the tail posts created since the previous minute, earliest first, while the cap allows.",
  oracle: true,
  cron: ["* * * * *"],
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    const p = PopularityParams.parse(env.params ?? {});
    const facts = PostFacts.of(env.world.db, horizonMs(p));
    return {
      nextWake: (now) => nextMultiple(now, ORACLE_STEP_MS),
      async act() {
        const now = api.now();
        const fresh = facts
          .tailsCreatedIn(p.tail_threshold, now - ORACLE_STEP_MS + 1, now)
          .filter((x) => x.visible_at <= now);
        if (fresh.length === 0) return;
        const s = await status(api);
        const runStart = parseIsoInstant(s.run_start);
        const done = new Set(s.pending.map((r) => r.root_id));
        let left = s.cap.remaining;
        for (const x of fresh) {
          if (left === 0) break;
          if (x.created_utc < runStart || done.has(x.id)) continue;
          const r = await api.call(RECOMMEND_TOOL, { root_id: x.id });
          if (r.ok) left--;
        }
      },
    };
  },
};

export const popularityPolicies: ReferencePolicy[] = [silentPolicy, oraclePolicy, velocityPolicy];
