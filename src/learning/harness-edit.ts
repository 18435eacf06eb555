import { z } from "zod";

/** what a harness-optimizer edit may touch */
export const OPTIMIZER_SURFACES = ["addendum", "tunable", "watcher_program"] as const;
export type OptimizerSurface = (typeof OPTIMIZER_SURFACES)[number];

/** the longest addendum an edit may set (the run config's `agent.instruction_addendum` cap) */
export const ADDENDUM_MAX_CHARS = 8000;
/** the longest watcher program an edit may write */
export const PROGRAM_MAX_CHARS = 64 * 1024;

/**
 * The editable part of a run's harness at one instant: the additional instructions, the tuned values
 * of the task's tunable params, and the watcher programs the harness wrote into the workspace (path →
 * source). A state without a path the harness wrote before gives that file back its content from
 * before the harness's first write (or removes it when there was none).
 */
export interface HarnessState {
  addendum: string;
  tuned: Readonly<Record<string, unknown>>;
  programs: Readonly<Record<string, string>>;
}

/** The run's editable harness, as the runner gives it to the optimizer (src/run/harness-surface.ts). */
export interface EditableHarness {
  /** the surfaces this run has (the addendum always; tunable params when the task declares some; programs under the watcher trigger) */
  readonly surfaces: readonly OptimizerSurface[];
  /** the task's tunable params: name → what it changes */
  readonly tunable: Readonly<Record<string, string>>;
  /** the configured value of each tunable param */
  configured(name: string): unknown;
  state(): HarnessState;
  /** why `next` cannot be applied (a tuned value the task's params refuse, a bad workspace path), or null */
  check(next: HarnessState): string | null;
  /** applies `next` whole (check first: it throws on a state `check` refuses, changing nothing) */
  set(next: HarnessState): void;
  /** the current source of a workspace file (null: absent; always null without a workspace) */
  readProgram(path: string): string | null;
}

/** The proposer's one tool: the whole edit, validated before anything is applied. */
export const PROPOSE_EDIT_TOOL = "propose_edit";

export const ProposeEditArgs = z
  .object({
    rationale: z.string().min(1).max(2000).describe("why this edit should help, from the trajectory and hindsight"),
    addendum: z
      .string()
      .max(ADDENDUM_MAX_CHARS)
      .optional()
      .describe("the new additional instructions (replace the current ones; empty string: none)"),
    tuned: z
      .record(z.string(), z.union([z.number(), z.string(), z.boolean()]))
      .optional()
      .describe("tunable task params to set: name → value"),
    watcher_program: z
      .object({
        path: z.string().min(1).max(256).describe("a .js file in the agent's workspace"),
        source: z.string().min(1).max(PROGRAM_MAX_CHARS),
      })
      .strict()
      .optional()
      .describe("a watcher program to write into the agent's workspace"),
  })
  .strict();
export type ProposeEdit = z.infer<typeof ProposeEditArgs>;

/** what changed between two harness states, for notes and results (empty: nothing) */
export function describeChange(from: HarnessState, to: HarnessState): string[] {
  const out: string[] = [];
  if (from.addendum !== to.addendum) out.push(`addendum (${to.addendum.length} chars)`);
  for (const k of new Set([...Object.keys(from.tuned), ...Object.keys(to.tuned)]))
    if (JSON.stringify(from.tuned[k]) !== JSON.stringify(to.tuned[k])) out.push(`${k}=${JSON.stringify(to.tuned[k])}`);
  for (const p of new Set([...Object.keys(from.programs), ...Object.keys(to.programs)]))
    if (from.programs[p] !== to.programs[p]) out.push(`program ${p}`);
  return out;
}

/**
 * The candidate state an edit makes from `incumbent`, or the reason it is refused (a surface the run
 * does not offer, an unknown tunable param, a program path that is not a .js file). Only fields the
 * edit gives change; the result is checked as a whole by `EditableHarness.check` before it is applied.
 */
export function candidateOf(
  incumbent: HarnessState,
  edit: ProposeEdit,
  h: Pick<EditableHarness, "surfaces" | "tunable">,
): { ok: true; state: HarnessState } | { ok: false; reason: string } {
  const has = (s: OptimizerSurface) => h.surfaces.includes(s);
  if (edit.addendum !== undefined && !has("addendum"))
    return { ok: false, reason: "addendum: not an editable surface of this run" };
  if (edit.tuned !== undefined && Object.keys(edit.tuned).length && !has("tunable"))
    return { ok: false, reason: "tuned: this run has no tunable task params" };
  if (edit.watcher_program !== undefined && !has("watcher_program"))
    return { ok: false, reason: "watcher_program: only runs under the watcher trigger have a watcher program" };
  const tuned = { ...incumbent.tuned };
  for (const [k, v] of Object.entries(edit.tuned ?? {})) {
    if (!(k in h.tunable))
      return {
        ok: false,
        reason: `tuned.${k}: not a tunable param of this task (tunable: ${Object.keys(h.tunable).join(", ") || "none"})`,
      };
    tuned[k] = v;
  }
  const programs = { ...incumbent.programs };
  if (edit.watcher_program) {
    const { path, source } = edit.watcher_program;
    if (!/\.js$/.test(path)) return { ok: false, reason: `watcher_program.path: "${path}" is not a .js file` };
    programs[path] = source.endsWith("\n") ? source : `${source}\n`;
  }
  return { ok: true, state: { addendum: edit.addendum ?? incumbent.addendum, tuned, programs } };
}
