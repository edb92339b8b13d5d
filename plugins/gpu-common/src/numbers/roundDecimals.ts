/**
 * Rounds to `digits` decimals without binary noise (0.1 + 0.2 → 0.3): the
 * one rounding of shares, GPU equivalents and hourly prices, so the plan, the
 * card and the PR body show the same figure.
 *
 * @public
 */
export function roundDecimals(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}
