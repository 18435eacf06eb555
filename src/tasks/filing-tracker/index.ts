import { utcDay } from "../../common/time.js";
import { defineTask, type Episode } from "../task.js";
import { createFilingTrackerEnv } from "./environment.js";
import { filingTrackerExampleWatcher } from "./example-watcher.js";
import { recordKey } from "./filing-record.js";
import { renderInstruction } from "./instruction.js";
import { FilingTrackerParams } from "./params.js";
import { filingTrackerPolicies } from "./policies.js";
import { FILING_TRACKER_SCORER_VERSION, FilingTrackerScorer } from "./scorer.js";
import { filingObservations, openDutyLines, visibleDeadlines } from "./visible-duties.js";

const day = utcDay;

export const FILING_TRACKER_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic filings of six companies (one earnings cycle each: 8-K 2.02, then 10-Q/10-K), holdings changing mid-run, 2026-03-01 → 03-28.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 03-07, for quick checks.",
  },
];

export const filingTrackerTask = defineTask<FilingTrackerParams>({
  id: "filing-tracker",
  version: "1",
  scorer_version: FILING_TRACKER_SCORER_VERSION,
  title: "Web filing tracking (browser task)",
  axes: { time_sensitivity: "high (deadline)", reasoning: "medium", recurrence: "event" },
  params: FilingTrackerParams,
  episodes: FILING_TRACKER_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "0 0 * * *",
  exampleWatcher: filingTrackerExampleWatcher,
  streams: ["company", "filing", "xbrl_fact", "broker_event"],
  optionalStreams: ["xbrl_fact"],
  open(ctx) {
    // per run: the SEC replay, blotter and portal hosts, the browser session and the tools over them
    const env = createFilingTrackerEnv(ctx);
    return {
      instruction: () =>
        renderInstruction({
          params: ctx.params,
          sim_start: ctx.sim_start,
          sim_end: ctx.sim_end,
          budget_usd: ctx.budget_usd,
        }),
      tools: () => env.tools,
      // the NYSE open after each duty filing visible now (never a filing not yet visible)
      deadlines: (view, until) => visibleDeadlines(view, until),
      state: () => [
        {
          title: "filings to record (visible, not yet saved in the portal)",
          lines: openDutyLines(ctx.view, new Set(env.portal.list().map((s) => recordKey(s.record)))),
        },
      ],
      observations: (since, now) => filingObservations(ctx.view, since, now),
      dispose: () => env.dispose(),
    };
  },
  createScorer: (ctx) => new FilingTrackerScorer(ctx),
  referencePolicies: filingTrackerPolicies,
  metrics: {
    primary: "filing_score",
    direction: "higher",
    secondary: [
      "duties",
      "ok",
      "miss",
      "wrong",
      "premature",
      "no_evidence",
      "ok_rate_8k",
      "ok_rate_periodic",
      "saves",
      "saves_invalid",
      "sec_reads",
    ],
  },
});
