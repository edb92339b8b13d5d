/**
 * THE Kueue rule (★): the nominal quotas of a flavor never exceed what its
 * pool's limits can provision. Kueue admits by quota alone ("Kueue is not
 * aware of the cluster's actual resources", kubernetes-sigs/kueue#3210), and
 * priority-based preemption stops working once `nominalQuota` exceeds what
 * the nodes can hold (kubernetes-sigs/kueue#4782): admitted pods would stay
 * Pending on a pool Karpenter may not grow. A pool's capacity is its
 * NodePool limit on physical GPUs × the units one GPU offers
 * (`capacity/poolUnits.ts` `poolCapacityUnits`, the count the planner and
 * the quota use).
 *
 * With borrowing (every team queue of a cluster is in one cohort), two
 * things are checked per flavor and resource, in the pool's units:
 *
 * 1. what the cohort can admit there at once — every team's
 *    `nominalQuota` plus the quota a `Cohort` object itself holds there —
 *    is at most the capacity (borrowing only moves that quota between
 *    teams, it never adds any);
 * 2. what each team can reach there — its `nominalQuota` plus what it may
 *    borrow, the lesser of its `borrowingLimit` (none: no limit) and what
 *    the others lend (each other team's `lendingLimit`, none: its whole
 *    nominal quota; and the cohort's own quota) — is at most the capacity.
 *
 * (2) follows from (1) while every `lendingLimit` is at most its nominal
 * quota, which Kueue's webhook requires ("must be less than or equal to the
 * nominalQuota", kubernetes-sigs/kueue v0.19.2
 * `pkg/webhooks/clusterqueue_webhook.go`); it is checked on its own for
 * trees written by hand. The request flow refuses a change that breaks
 * either and `validate` reports a repository that does.
 */
import type { InputIssue } from '../errors';
import { formatGpuEquivalents } from '../output/gpuHoldingTitle';

/**
 * One team's quota on one flavor, in units of the pool's resource.
 *
 * @public
 */
export interface FlavorQuota {
  team: string;
  /** `nominalQuota`. */
  units: number;
  /** `borrowingLimit`: the most it may borrow; undefined = no limit. */
  borrowingLimit?: number;
  /** `lendingLimit`: the most of its idle quota it lends; undefined = all of it. */
  lendingLimit?: number;
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
  /** Units a `Cohort` object of the queues' cohort holds on the flavor itself (default 0). */
  cohortUnits?: number;
}

const lendable = (q: FlavorQuota) =>
  q.lendingLimit === undefined ? q.units : q.lendingLimit;

/** The most `team` can hold on the flavor at once: its nominal quota and what it may borrow. */
function reachOf(
  team: FlavorQuota,
  quotas: readonly FlavorQuota[],
  cohortUnits: number,
): number {
  const lent = quotas
    .filter(q => q !== team)
    .reduce((sum, q) => sum + lendable(q), cohortUnits);
  const borrowable =
    team.borrowingLimit === undefined
      ? lent
      : Math.min(team.borrowingLimit, lent);
  return team.units + borrowable;
}

/**
 * The issues when what the cohort admits on `flavor`, or what one team can
 * reach there by borrowing, is more than its pool can provision, naming
 * each team's quota and both ways out.
 *
 * @public
 */
export function flavorQuotaIssues(
  flavor: FlavorCapacity,
  quotas: readonly FlavorQuota[],
  labelDomain: string,
): InputIssue[] {
  const capacity = flavor.capacityUnits;
  if (capacity === undefined) return [];
  const cohortUnits = flavor.cohortUnits ?? 0;
  const gpus = (units: number) =>
    formatGpuEquivalents(units / flavor.unitsPerGpu);
  const fix = (lower: string, units: number) =>
    `Lower ${lower} in gpu.policy, or raise the pool's ` +
    `${labelDomain}/limit-floor annotation to ${Math.ceil(units / flavor.unitsPerGpu)} GPUs`;
  const provision = `but the pool's limits provision only ${capacity} (${gpus(capacity)}): Kueue would admit pods no node can take.`;
  const total = quotas.reduce((sum, q) => sum + q.units, cohortUnits);
  if (total > capacity) {
    const teams = quotas
      .map(q => `${q.team} ${q.units} (${gpus(q.units)})`)
      .concat(cohortUnits > 0 ? [`the cohort itself ${cohortUnits}`] : [])
      .join(', ');
    return [
      {
        path: 'spec.gpu.replicas',
        rule: 'kueue-quota-above-pool',
        message: `Kueue quotas on pool ${flavor.pool} add up to ${total} ${flavor.resourceName} (${teams}) ${provision} ${fix("the teams' gpuQuota", total)}`,
      },
    ];
  }
  return quotas.flatMap(team => {
    const reach = reachOf(team, quotas, cohortUnits);
    if (reach <= capacity) return [];
    return [
      {
        path: 'spec.gpu.replicas',
        rule: 'kueue-quota-above-pool',
        message:
          `Kueue lets ${team.team} hold up to ${reach} ${flavor.resourceName} on pool ${flavor.pool} ` +
          `(nominal ${team.units} + ${reach - team.units} borrowed within the cohort) ${provision} ${fix(`${team.team}'s kueue.borrowingLimit`, reach)}`,
      },
    ];
  });
}
