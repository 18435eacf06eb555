/** A row handed to the world builder failed validation or a uniqueness constraint. */
export class WorldRowError extends Error {
  readonly kind: string;
  readonly index: number;
  readonly field: string;
  constructor(kind: string, index: number, field: string, reason: string) {
    super(`invalid ${kind} row at index ${index}: field "${field}": ${reason}`);
    this.name = "WorldRowError";
    this.kind = kind;
    this.index = index;
    this.field = field;
  }
}
