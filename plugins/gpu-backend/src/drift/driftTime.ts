/**
 * How long a state has lasted, for the rules that wait out a grace period
 * before calling something drift (a node starting its device plugin, a
 * pod waiting for its node).
 */

/** How long ago `since` was; 0 when it is unknown (never drift on a guess). */
export function ageMs(since: Date | string | undefined, now: Date): number {
  return since ? now.getTime() - new Date(since).getTime() : 0;
}

/** `25 min`. */
export function minutes(ms: number): string {
  return `${Math.floor(ms / 60_000)} min`;
}
