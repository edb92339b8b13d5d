/**
 * Where an allocation's pods land, in the words every page shows (the
 * entity card's row, the GPU tab): the product's pool by its name, the
 * team's own GPU nodes by theirs and marked as not the product's (nothing
 * is counted or priced there), else `none`.
 */
import type { GpuAllocation } from './types';

/**
 * The label of an allocation's pool: its name (gpu-t4-ts4); for the
 * team's own nodes their name marked as such ("team-g5 (the team's own GPU
 * nodes, not a pool of the product's)"); else "none".
 *
 * @public
 */
export function allocationPoolLabel(
  allocation: Pick<GpuAllocation, 'pool' | 'teamNodes'>,
): string {
  const { teamNodes } = allocation;
  if (teamNodes && teamNodes.length > 0) {
    return `${teamNodes.join(', ')} (the team's own GPU nodes, not a pool of the product's)`;
  }
  return allocation.pool || 'none';
}
