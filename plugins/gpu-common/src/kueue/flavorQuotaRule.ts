/**
 * THE Kueue rule (★): the nominal quotas of a flavor never exceed what its
 * pool's limits can provision. Kueue admits by quota alone ("Kueue is not
 * aware of the cluster's actual resources", kubernetes-sigs/kueue#3210), and
 * priority-based preemption stops working once `nominalQuota` exceeds what
 * the nodes can hold (kubernetes-sigs/kueue#4782): admitted pods would stay
 * Pending on a pool Karpenter may not grow. So the sum of every team's
 * `nominalQuota` on a pool's flavor is held to the pool's capacity: its
 * NodePool limit on physical GPUs × the units one GPU offers
 * (`capacity/poolUnits.ts` `poolCapacityUnits`, the count the planner and
 * the quota use). The request flow refuses a change that breaks it and
 * `validate` reports a repository that does.
 */
import type { InputIssue } from '../errors';
import { formatGpuEquivalents } from '../output/gpuHoldingTitle';

/**
 * One team's nominal quota on one flavor, in units of the pool's resource.
 *
 * @public
 */
export interface FlavorQuota {
  team: string;
  units: number;
}

/**
 * A flavor's pool as the rule reads it.
 *
 * @public
 */
export interface FlavorCapacity {
  pool: string;
  resourceName: string;
  /** Units the pool's limits can provision; undefined when it has no limit. */
  capacityUnits: number | undefined;
  unitsPerGpu: number;
}

/**
 * The issue when the teams' nominal quotas on `flavor` add up to more than
 * its pool can provision, naming each team's quota and both ways out.
 *
 * @public
 */
export function flavorQuotaIssues(
  flavor: FlavorCapacity,
  quotas: readonly FlavorQuota[],
  labelDomain: string,
): InputIssue[] {
  const total = quotas.reduce((sum, q) => sum + q.units, 0);
  if (flavor.capacityUnits === undefined || total <= flavor.capacityUnits) {
    return [];
  }
  const gpus = (units: number) =>
    formatGpuEquivalents(units / flavor.unitsPerGpu);
  const teams = quotas
    .map(q => `${q.team} ${q.units} (${gpus(q.units)})`)
    .join(', ');
  return [
    {
      path: 'spec.gpu.replicas',
      rule: 'kueue-quota-above-pool',
      message:
        `Kueue quotas on pool ${flavor.pool} add up to ${total} ${flavor.resourceName} ` +
        `(${teams}) but the pool's limits provision only ${flavor.capacityUnits} ` +
        `(${gpus(flavor.capacityUnits)}): Kueue would admit pods no node can take. ` +
        `Lower the teams' gpuQuota in gpu.policy, or raise the pool's ` +
        `${labelDomain}/limit-floor annotation to ${Math.ceil(total / flavor.unitsPerGpu)} GPUs`,
    },
  ];
}
