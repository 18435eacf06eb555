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

/** per event type, its fields in line order, each with its `"key":` prefix */
interface FieldOrder {
  readonly keys: readonly string[];
  readonly prefixes: readonly string[];
  readonly known: ReadonlySet<string>;
}

const FIELD_ORDER: ReadonlyMap<string, FieldOrder> = new Map(
  LedgerEventSchema.options.map((o) => {
    const keys = ["seq", "t", "type", ...Object.keys(o.shape).filter((k) => k !== "seq" && k !== "t" && k !== "type")];
    return [
      o.shape.type.value,
      { keys, prefixes: keys.map((k) => `${JSON.stringify(k)}:`), known: new Set(keys) },
    ] as const;
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
      for (const k of Object.keys(rec))
        if (!order.known.has(k)) {
          const extra = Object.keys(rec).filter((x) => !order.known.has(x));
          throw new Error(`ledger: ${e.type} event has fields outside its schema: ${extra.join(", ")}`);
        }
      let line = "{";
      for (let i = 0; i < order.keys.length; i++) {
        const v = rec[order.keys[i]!];
        if (v === undefined) continue;
        if (line.length > 1) line += ",";
        line += order.prefixes[i]! + canonicalJson(v);
      }
      return `${line}}`;
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
