import { compareStrings } from '../text/compareStrings';

/**
 * Kubernetes quantities are written as strings: YAML would otherwise emit
 * numbers, which several controllers (and `kubectl diff`) treat differently
 * from the canonical string form the API server stores.
 */
export function quantity(value: number): string {
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`Invalid quantity ${value}: must be a finite number >= 0`);
  }
  return String(value);
}

/** Maps each value of a record of numbers to its quantity string. */
export function quantities(
  values: Record<string, number>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([key, value]) => [key, quantity(value)]),
  );
}
