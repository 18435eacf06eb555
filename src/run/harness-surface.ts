import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  type EditableHarness,
  type HarnessState,
  OPTIMIZER_SURFACES,
  type OptimizerSurface,
  PROGRAM_MAX_CHARS,
} from "../learning/harness-edit.js";
import { Workspace } from "../triggers/watcher/workspace.js";
import type { ResolvedRun } from "./resolve-run.js";

/**
 * The run's editable harness (issue 13 §5): the additional instructions every LLM actor sees after
 * the task's instruction (`agent.instruction_addendum`), the tuned values of the task's tunable params
 * (`TaskSpec.tunable`, read by the tools through `TaskRunContext.tuned`, never by the scorer) and, under
 * the watcher trigger, watcher programs written into the agent's workspace. A restart's switch and
 * the harness optimizer change it at a day boundary through `set`, which checks the whole state first
 * and changes nothing when any part is refused.
 */
export class HarnessSurface implements EditableHarness {
  readonly surfaces: readonly OptimizerSurface[];
  readonly tunable: Readonly<Record<string, string>>;
  private current: HarnessState;
  private merged: Record<string, unknown>;
  /** the content of each file before the harness first wrote it (null: absent) */
  private readonly origin = new Map<string, string | null>();
  private readonly workspaceDir: string | null;

  constructor(private readonly r: ResolvedRun) {
    this.tunable = r.task.tunable ?? {};
    const watcher = r.agent.kind === "model" && r.agent.trigger === "watcher";
    this.workspaceDir = watcher ? join(r.runDir, "workspace") : null;
    const allowed = r.learning.optimizer?.surface ?? OPTIMIZER_SURFACES;
    this.surfaces = allowed.filter(
      (s) =>
        s === "addendum" ||
        (s === "tunable" && Object.keys(this.tunable).length > 0) ||
        (s === "watcher_program" && watcher),
    );
    this.current = { addendum: r.config.agent.instruction_addendum ?? "", tuned: {}, programs: {} };
    this.merged = r.params as Record<string, unknown>;
  }

  configured(name: string): unknown {
    return (this.r.params as Record<string, unknown>)[name];
  }

  state(): HarnessState {
    return this.current;
  }

  /** the params the tools read: the configured ones with the tuned values (the same object until an edit) */
  params(): unknown {
    return this.merged;
  }

  /** the text of the system prompt's "Additional instructions" (the addendum, then the tuned params) */
  addendumText(): string {
    const tuned = Object.entries(this.current.tuned);
    return [
      ...(this.current.addendum.trim() ? [this.current.addendum.trimEnd()] : []),
      ...(tuned.length
        ? [
            `Task parameters the harness set for this run (tool descriptions show the configured values): ${tuned
              .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
              .join(", ")}.`,
          ]
        : []),
    ].join("\n");
  }

  check(next: HarnessState): string | null {
    if (next.addendum.length > 8000) return "addendum: longer than 8,000 characters";
    for (const k of Object.keys(next.tuned))
      if (!(k in this.tunable))
        return `tuned.${k}: not a tunable param of task ${this.r.task.id} (tunable: ${Object.keys(this.tunable).join(", ") || "none"})`;
    const parsed = this.r.task.params.safeParse({ ...(this.r.params as Record<string, unknown>), ...next.tuned });
    if (!parsed.success)
      return `tuned: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`;
    const paths = Object.keys(next.programs);
    if (paths.length && this.workspaceDir === null) return "watcher_program: this run has no watcher workspace";
    for (const p of paths) {
      const bad = programPathProblem(p);
      if (bad !== null) return `watcher_program.path: "${p}" ${bad}`;
      if (Buffer.byteLength(next.programs[p]!, "utf8") > PROGRAM_MAX_CHARS)
        return `watcher_program.source: longer than ${PROGRAM_MAX_CHARS} bytes`;
    }
    return null;
  }

  set(next: HarnessState): void {
    const problem = this.check(next);
    if (problem !== null) throw new Error(`internal: a refused harness state was applied: ${problem}`);
    if (this.workspaceDir !== null) {
      const ws = new Workspace(this.workspaceDir);
      // files the next state no longer holds get their content from before the harness wrote them back
      for (const p of Object.keys(this.current.programs))
        if (!(p in next.programs)) {
          const before = this.origin.get(p) ?? null;
          if (before === null) rmSync(join(ws.root, p), { force: true });
          else ws.writeFile(p, before);
        }
      for (const [p, src] of Object.entries(next.programs)) {
        if (!this.origin.has(p)) this.origin.set(p, this.readProgram(p));
        if (this.readProgram(p) !== src) ws.writeFile(p, src);
      }
    }
    if (JSON.stringify(next.tuned) !== JSON.stringify(this.current.tuned))
      this.merged = { ...(this.r.params as Record<string, unknown>), ...next.tuned };
    this.current = { addendum: next.addendum, tuned: { ...next.tuned }, programs: { ...next.programs } };
  }

  readProgram(path: string): string | null {
    if (this.workspaceDir === null) return null;
    const ws = new Workspace(this.workspaceDir);
    try {
      const abs = join(ws.root, path);
      return existsSync(abs) ? readFileSync(abs, "utf8") : null;
    } catch {
      return null;
    }
  }
}

/** a harness-written program's path: relative, inside the workspace, a `.js` file (the workspace jail checks it again) */
function programPathProblem(p: string): string | null {
  if (p.length > 256) return "is longer than 256 characters";
  if (!/\.js$/.test(p)) return "is not a .js file";
  if (p.startsWith("/") || p.includes("\\")) return "must be a relative path without backslashes";
  const control = (seg: string) => [...seg].some((ch) => ch.charCodeAt(0) < 0x20);
  if (p.split("/").some((seg) => seg === "" || seg === "." || seg === ".." || control(seg)))
    return "has an empty, '.', '..' or control-character segment";
  return null;
}
