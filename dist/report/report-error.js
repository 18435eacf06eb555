class ReportInputError extends Error {
  constructor(message) {
    super(message);
    this.name = "ReportInputError";
  }
}
export {
  ReportInputError
};
//# sourceMappingURL=report-error.js.map
