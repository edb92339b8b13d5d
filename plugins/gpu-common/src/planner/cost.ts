/** Hours per month used for monthly prices (365 * 24 / 12), as AWS does. */
export const HOURS_PER_MONTH = 730;

/** Rounds to `digits` decimals without binary noise (0.1 + 0.2 -> 0.3). */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

/** On-demand cost of `nodes` nodes at `usdPerHourPerNode`. */
export function nodeCost(
  nodes: number,
  usdPerHourPerNode: number,
): { usdPerHour: number; usdPerMonth: number } {
  const perHour = nodes * usdPerHourPerNode;
  return {
    usdPerHour: round(perHour, 4),
    usdPerMonth: round(perHour * HOURS_PER_MONTH, 2),
  };
}
