import { z } from "zod";
import { GridJobSummarySchema } from "./grid-job.js";

/** Run options a job process receives (plain data: they cross a process boundary). */
export const ChildRunOptionsSchema = z
  .object({
    runsDir: z.string().min(1),
    cacheDir: z.string().min(1),
    rawDir: z.string().min(1).optional(),
    /** the parent's recipe search path (its --recipes and project recipe_dirs), absolute */
    recipeDirs: z.array(z.string().min(1)).optional(),
    /** oracle policies: tests and calibration only */
    allowOracle: z.boolean().optional(),
    modelTimeoutMs: z.number().int().positive().optional(),
  })
  .strict();
export type ChildRunOptions = z.infer<typeof ChildRunOptionsSchema>;

/** parent → job process */
export const ParentMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("run"),
    seq: z.number().int(),
    cell: z.object({ id: z.string().optional(), label: z.string().optional(), config: z.unknown() }),
    options: ChildRunOptionsSchema,
  }),
]);
export type ParentMessage = z.infer<typeof ParentMessageSchema>;

/** job process → parent */
export const ChildMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), pid: z.number().int() }),
  z.object({ type: z.literal("log"), seq: z.number().int(), message: z.string() }),
  z.object({ type: z.literal("result"), seq: z.number().int(), summary: GridJobSummarySchema }),
  z.object({ type: z.literal("error"), seq: z.number().int(), name: z.string(), message: z.string() }),
]);
export type ChildMessage = z.infer<typeof ChildMessageSchema>;
