/**
 * The one list of trigger kinds (spec/harness.md "Triggers"): how an agent is woken. `policy` is a
 * trigger policy written as code (`--trigger interval:15m`, `keyword:<regex>`, `--trigger-module`).
 * Configs, ledger lines, results, tasks' instructions and the triggers themselves share it.
 */
export const TRIGGER_KINDS = ["sleep", "watcher", "cron", "policy"] as const;

export type TriggerKind = (typeof TRIGGER_KINDS)[number];
