import { canonicalJson } from "../common/canonical-json.js";
import { type LedgerEvent, LedgerEvent as LedgerEventSchema } from "./events.js";

/**
 * Ledger line formats. Version 1 (ledgers whose run_start has no `ledger_version`) is
 * `JSON.stringify` of the event as built, so its key order is that of the object literals that
 * built it. Version 2 fixes the order in the serializer: `seq`, `t`, `type`, then the event
 * schema's fields in declared order; nested values are canonical JSON (keys sorted). A refactor
 * that reorders an object literal can no longer change a line, so runs in flight stay resumable.
 */
export const CURRENT_LEDGER_VERSION = 2;
export type LedgerVersion = 1 | 2;

const FIELD_ORDER: ReadonlyMap<string, readonly string[]> = new Map(
  LedgerEventSchema.options.map((o) => {
    const keys = Object.keys(o.shape).filter((k) => k !== "seq" && k !== "t" && k !== "type");
    return [o.shape.type.value, ["seq", "t", "type", ...keys]] as const;
  }),
);

export function serializeEvent(e: LedgerEvent, version: LedgerVersion): string {
  switch (version) {
    case 1:
      return JSON.stringify(e);
    case 2: {
      const rec = e as unknown as Record<string, unknown>;
      const order = FIELD_ORDER.get(e.type);
      if (!order) throw new Error(`ledger: no field order for event type ${JSON.stringify(e.type)}`);
      const extra = Object.keys(rec).filter((k) => !order.includes(k));
      if (extra.length) throw new Error(`ledger: ${e.type} event has fields outside its schema: ${extra.join(", ")}`);
      const parts: string[] = [];
      for (const k of order) if (rec[k] !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(rec[k])}`);
      return `{${parts.join(",")}}`;
    }
    default: {
      const never: never = version;
      throw new Error(`unknown ledger version ${never}`);
    }
  }
}

/**
 * The format of a recorded ledger, read from its first line: a run_start without `ledger_version`
 * is version 1; a ledger that does not open with run_start (or is empty) is current.
 */
export function ledgerVersionOf(firstLine: string | undefined): LedgerVersion {
  if (firstLine === undefined) return CURRENT_LEDGER_VERSION;
  const first = JSON.parse(firstLine) as { type?: unknown; ledger_version?: unknown };
  const v = first.ledger_version;
  if (v === undefined) return first.type === "run_start" ? 1 : CURRENT_LEDGER_VERSION;
  if (v === 1 || v === 2) return v;
  throw new Error(`ledger format version ${JSON.stringify(v)} is newer than this relive (${CURRENT_LEDGER_VERSION})`);
}
