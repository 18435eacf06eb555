/**
 * Binary search over an array sorted ascending by a numeric key: the one implementation the
 * as-of readers, scorers and task logs share.
 */

/** The first index of `arr` (sorted by `key` ascending) whose key is ≥ `k` (`arr.length`: none). */
export function lowerBound<T>(arr: readonly T[], k: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(arr[mid] as T) < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index of `arr` (sorted by `key` ascending) whose key is > `k` (`arr.length`: none). */
export function upperBound<T>(arr: readonly T[], k: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(arr[mid] as T) <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
