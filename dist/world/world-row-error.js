class WorldRowError extends Error {
  kind;
  index;
  field;
  constructor(kind, index, field, reason) {
    super(`invalid ${kind} row at index ${index}: field "${field}": ${reason}`);
    this.name = "WorldRowError";
    this.kind = kind;
    this.index = index;
    this.field = field;
  }
}
export {
  WorldRowError
};
//# sourceMappingURL=world-row-error.js.map
