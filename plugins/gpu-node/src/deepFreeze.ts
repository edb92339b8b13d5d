/**
 * Freezes `value` and everything it holds, so one value can be handed to
 * many readers and none can change it under another (a change throws: the
 * package's modules run in strict mode). An object already frozen is taken
 * as frozen through: the values this package freezes are frozen here, or
 * are constants frozen by hand to the bottom.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) {
    return value;
  }
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
