/**
 * The limit of each network operation on the GitOps repository (every git
 * command, every forge API request): a remote that accepts the connection
 * and never answers must end the run, not hold it (and its clone lock)
 * forever. Given in seconds by users (`gpu-gitops pr --timeout`,
 * `gpu.gitops.timeoutSeconds`), used in milliseconds by the code.
 *
 * Isomorphic (no Node APIs).
 */
import { GpuInputError } from '../errors';

/**
 *  60 s: far above a healthy fetch or push of a sparse, shallow clone.
 *
 * @public
 */
export const DEFAULT_GITOPS_TIMEOUT_MS = 60_000;

/** An hour: beyond that, a "timeout" no longer guards against anything. */
export const MAX_GITOPS_TIMEOUT_SECONDS = 3600;

/**
 * Milliseconds for a timeout given in seconds (a number or its text), or
 * undefined when none is given (then the default applies); throws a
 * GpuInputError naming `field` when it is no number of seconds in
 * (0, MAX_GITOPS_TIMEOUT_SECONDS].
 *
 * @public
 */
export function gitOpsTimeoutMs(
  seconds: number | string | undefined,
  field: string,
): number | undefined {
  if (seconds === undefined) return undefined;
  const value = typeof seconds === 'number' ? seconds : Number(seconds);
  if (
    (typeof seconds === 'string' && seconds.trim() === '') ||
    !Number.isFinite(value) ||
    value <= 0 ||
    value > MAX_GITOPS_TIMEOUT_SECONDS
  ) {
    throw new GpuInputError([
      {
        path: field,
        rule: 'range',
        message: `"${seconds}" is not a number of seconds above 0 and at most ${MAX_GITOPS_TIMEOUT_SECONDS}`,
      },
    ]);
  }
  return Math.round(value * 1000);
}
