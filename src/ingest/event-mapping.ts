import { z } from "zod";

/**
 * Which source fields of a JSONL event log hold an event's time, kind and (optionally) id; every
 * other field is its payload. A light module (zod only): the recipe schema reuses the fields and
 * the rule without loading the importer.
 */
export const EventMappingFields = z.object({
  /** ISO-8601 (a missing zone is UTC) or epoch s/ms */
  time_field: z.string().min(1),
  kind_field: z.string().min(1),
  /** default: an opaque keyed hash of the row's content */
  id_field: z.string().min(1).optional(),
});

/** the three fields name different source fields */
export const distinctEventFields = (m: z.infer<typeof EventMappingFields>): boolean =>
  m.time_field !== m.kind_field && m.id_field !== m.time_field && m.id_field !== m.kind_field;
export const DISTINCT_EVENT_FIELDS = "time_field, kind_field and id_field must be different fields";

export const EventMapping = EventMappingFields.strict().refine(distinctEventFields, { message: DISTINCT_EVENT_FIELDS });
export type EventMapping = z.infer<typeof EventMapping>;
