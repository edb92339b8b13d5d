/** Rounds to `digits` decimals without binary noise (0.1 + 0.2 -> 0.3). */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

export { HOURS_PER_MONTH } from '../capacity/poolCost';
