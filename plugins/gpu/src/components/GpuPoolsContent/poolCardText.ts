import type {
  GpuAllocation,
  GpuModel,
  PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { formatUsd } from '../format/format';

/** The card's subheader: cluster, GPU model, sharing, units per GPU, instance types. */
export function poolSubheader(pool: PoolSummary, model?: GpuModel): string {
  return `${pool.cluster} · ${
    model?.displayName ?? pool.gpuModel ?? 'any GPU'
  } · ${pool.sharingMode} · ${pool.unitsPerGpu} per GPU · ${pool.instanceTypes.join(
    ', ',
  )}`;
}

/** The pool's nodes, their cost a month and its unallocated part. */
export function poolNodesCostText(pool: PoolSummary): string {
  const { cost } = pool;
  return cost.nodes === 0
    ? 'No nodes needed: $0.00 per month'
    : `${cost.nodes} × ${cost.instanceType ?? 'node'} = ${formatUsd(
        cost.usdPerMonth,
      )} per month, of which ${formatUsd(cost.idleUsdPerMonth)} unallocated (${
        cost.idleUnits
      } of ${cost.capacityUnits} ${pool.resourceName} free)`;
}

/**
 * What the component holds of the pool, by its allocations' figures (the
 * card's): the units its pool's ledger gives it and their cost, or, when
 * the ledger gives it none (a workload placed there by its selector), what
 * its pods use and that nothing is priced.
 */
export function componentShareText(
  allocations: readonly GpuAllocation[],
  resourceName: string,
): string {
  const held = allocations.reduce((sum, a) => sum + a.unitsHeld, 0);
  const cents = allocations.reduce(
    (sum, a) => sum + Math.round(a.usdPerMonth * 100),
    0,
  );
  if (held > 0) {
    return `This component: ${held} ${resourceName}, ${formatUsd(cents / 100)} per month`;
  }
  const used = allocations.reduce(
    (sum, a) => sum + a.replicas * a.perReplica,
    0,
  );
  return `This component: ${used} ${resourceName} in use, none held in the pool’s ledger: ${formatUsd(cents / 100)} per month`;
}
