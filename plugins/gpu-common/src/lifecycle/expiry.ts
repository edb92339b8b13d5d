/**
 * A request's expiry (`spec.expiresAt`): when it is, how many days are left,
 * and the one rule a new request's date must follow. The card, the
 * allocation API, the actions and the backend's scheduler all ask here, so
 * they agree to the day. Every function takes its clock: tests inject one.
 */
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';

const DAY_MS = 86_400_000;

/**
 * The longest "release after N days" the form offers: a year.
 *
 * @public
 */
export const MAX_RELEASE_AFTER_DAYS = 365;

/**
 * `spec.expiresAt` for "release after `days` days", counted from `now`.
 *
 * @public
 */
export function expiresAfterDays(days: number, now: Date): string {
  if (!Number.isInteger(days) || days < 1 || days > MAX_RELEASE_AFTER_DAYS) {
    throw new GpuInputError([
      {
        path: 'spec.expiresAt',
        rule: 'release-after-days',
        message: `"Release after N days" must be a whole number of days from 1 to ${MAX_RELEASE_AFTER_DAYS}; got ${days}`,
      },
    ]);
  }
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/**
 * Whole days until the request expires, rounded up (0 or less: expired);
 * undefined when it does not expire.
 *
 * @public
 */
export function daysUntilExpiry(
  request: Pick<GpuRequest, 'spec'>,
  now: Date,
): number | undefined {
  const at = request.spec.expiresAt;
  if (at === undefined) return undefined;
  return Math.ceil((Date.parse(at) - now.getTime()) / DAY_MS);
}

/**
 * How the card says it: "expires in 3 days", "expires in 1 day", or
 * "expired, release pending" once the day has come.
 *
 * @public
 */
export function expiryLabel(daysLeft: number): string {
  if (daysLeft <= 0) return 'expired, release pending';
  return `expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`;
}

/**
 * True when the request's expiry has passed at `now`.
 *
 * @public
 */
export function isExpired(
  request: Pick<GpuRequest, 'spec'>,
  now: Date,
): boolean {
  const at = request.spec.expiresAt;
  return at !== undefined && Date.parse(at) <= now.getTime();
}

/**
 * Refuses a request sent with an expiry already past: the scheduler would
 * open its release before anyone merged it. Checked when a request is sent
 * (the actions, `gpu-gitops pr`), not when a stored request is re-rendered.
 *
 * @public
 */
export function checkExpiryAtCreation(request: GpuRequest, now: Date): void {
  if (!isExpired(request, now)) return;
  throw new GpuInputError([
    {
      path: 'spec.expiresAt',
      rule: 'expires-in-the-past',
      message: `${request.spec.expiresAt} has passed already (it is ${now.toISOString()}): give a date in the future, or none`,
    },
  ]);
}
