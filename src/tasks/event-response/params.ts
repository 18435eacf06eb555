import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { parseTaskFile, sha256Text, type TaskFile } from "./task-file.js";

/**
 * event-response parameters (run config `task_params`): `task_file` names the YAML task file (a
 * path relative to the working directory). Parsing reads it once and carries its text and sha256
 * in the parsed parameters, so the resolved config (and so the run id) hashes the file's content;
 * a re-parse of parsed parameters (open, scorer, rescore of the same config) uses the carried text
 * and checks it against the sha256, never re-reading the file.
 */
export const EventResponseParams = z
  .object({
    task_file: z.string().min(1),
    task_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    task_text: z.string().optional(),
    /** the parsed task file (output only: re-derived from task_text) */
    task: z.unknown().optional(),
  })
  .strict()
  .transform((p, ctx) => {
    let text = p.task_text;
    if (text === undefined) {
      try {
        text = readFileSync(resolve(p.task_file), "utf8");
      } catch (e) {
        ctx.addIssue({
          code: "custom",
          path: ["task_file"],
          message: `cannot read ${p.task_file}: ${(e as Error).message}`,
        });
        return z.NEVER;
      }
    }
    const sha = sha256Text(text);
    if (p.task_sha256 !== undefined && p.task_sha256 !== sha) {
      ctx.addIssue({ code: "custom", path: ["task_sha256"], message: "does not match the sha256 of task_text" });
      return z.NEVER;
    }
    let task: TaskFile;
    try {
      task = parseTaskFile(text, p.task_file);
    } catch (e) {
      ctx.addIssue({ code: "custom", path: ["task_file"], message: (e as Error).message });
      return z.NEVER;
    }
    return { task_file: p.task_file, task_sha256: sha, task_text: text, task };
  });

export type EventResponseParams = z.output<typeof EventResponseParams>;
