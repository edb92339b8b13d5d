/**
 * Why a pod lands on no pool, in one sentence: the refusals grouped by what
 * blocks (one pool's whole reason, or for a blocker many pools share, the
 * blocker, the first pool's nodes and the others' names). The one wording
 * of `validate`'s `workload-unschedulable` and the readers' "lands nowhere".
 */
import type { LandingRefusal } from './landingPools';

/** At most this many blockers in one message. */
const BLOCKERS_SHOWN = 3;

/** At most this many other pools named for one blocker (an index may hold thousands). */
const POOLS_SHOWN = 5;

function otherPoolsText(group: readonly LandingRefusal[]): string {
  const others = group.slice(1).map(r => r.pool);
  const more = others.length - POOLS_SHOWN;
  return `${others.slice(0, POOLS_SHOWN).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * The refusals as one text: a blocker many pools share is said once, with
 * the first pool's nodes and the other pools' names.
 *
 * @public
 */
export function landingRefusalsText(
  refused: readonly LandingRefusal[],
): string {
  const byBlocker = new Map<string, LandingRefusal[]>();
  for (const r of refused) {
    byBlocker.set(r.blocker, [...(byBlocker.get(r.blocker) ?? []), r]);
  }
  const texts = [...byBlocker.values()].map(group =>
    group.length === 1
      ? group[0].reason
      : `${group[0].reason} (and the same for ${otherPoolsText(group)})`,
  );
  const more = texts.length - BLOCKERS_SHOWN;
  return `${texts.slice(0, BLOCKERS_SHOWN).join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}
