/**
 * Freezes a JSON-like value (objects and arrays, no cycles) and everything reachable from it, and
 * returns it: a value shared between callers (a memoized tool result) then fails loudly, in strict
 * code, instead of letting one caller change what the next one reads.
 */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === "object" && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
