import { InvalidArgumentError } from "commander";

/** commander argument parsers shared by the commands: the error names what was expected. */
export const nonNegativeInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
};

export const nonNegative = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a non-negative number");
  return n;
};

export const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number");
  return n;
};
