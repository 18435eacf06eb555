/** A problem with the report's inputs or options (bad files, versions that must not be pooled, bad flags). */
export class ReportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReportInputError";
  }
}
