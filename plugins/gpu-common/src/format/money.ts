/**
 * Money, as every place shows it: US dollars with a thousands separator and
 * exactly two decimals (`$10,044.80`, `-$383.98`). Amounts are computed in
 * integer cents (see capacity/poolCost.ts) so that shares add up to the cent;
 * dollars are only a view of them.
 */

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 *  `$1,234.50` from dollars.
 *
 * @public
 */
export function formatUsd(dollars: number): string {
  // Intl prints -0 as "-$0.00".
  return usd.format(dollars === 0 ? 0 : dollars);
}

/** `$1,234.50` from integer cents. */
export function formatCents(cents: number): string {
  return formatUsd(centsToUsd(cents));
}

/** `$383.98/month`: a monthly amount, the unit every cost is compared in. */
export function formatUsdPerMonth(dollars: number): string {
  return `${formatUsd(dollars)}/month`;
}

/**
 *  Dollars (two decimals, as an API number) from integer cents.
 *
 * @public
 */
export function centsToUsd(cents: number): number {
  return Math.round(cents) / 100;
}

/**
 *  Integer cents from dollars, rounded half away from zero.
 *
 * @public
 */
export function usdToCents(dollars: number): number {
  const cents = Math.abs(dollars) * 100;
  // The epsilon rounds 0.005-style halves up despite binary noise.
  return Math.sign(dollars) * Math.round(cents + 1e-7);
}
