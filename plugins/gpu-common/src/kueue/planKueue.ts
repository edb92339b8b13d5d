/**
 * A cluster's Kueue queues from what the repository already holds: a flavor
 * per GPU pool, a ClusterQueue per team holding capacity in a pool (quota
 * from the team's `gpu.policy` quota, in each pool's units), a LocalQueue per
 * namespace of the team's requests, and the ★ rule's issues
 * (`flavorQuotaRule.ts`).
 */
import { poolCapacityUnits, unitsPerGpuOf } from '../capacity/poolUnits';
import type { ClusterProfile } from '../cluster/types';
import type { InputIssue } from '../errors';
import type { PoolState, RepoState } from '../planner/types';
import { gkePoolNodeLabels } from '../manifests/computeClass';
import { poolNodeLabel } from '../providers/poolNodeLabel';
import { flavorQuotaIssues, type FlavorQuota } from './flavorQuotaRule';
import {
  clusterQueue,
  localQueue,
  resourceFlavor,
  type FlavorResourceQuota,
  type KueueObject,
} from './kueueObjects';
import { clusterCohortName, teamQueueName } from './kueueNames';
import {
  deviceClassMappingWarning,
  kueueResourceName,
  type KueueDeviceClassMapping,
} from './kueueDeviceClasses';

/** @public */
export interface KueueInputs {
  cluster: Pick<
    ClusterProfile,
    'name' | 'provider' | 'clusterApi' | 'labelDomain'
  >;
  /** The cluster's state after the change (its pools with their ledgers and limits). */
  state: RepoState;
  /** The owner ref of a request (`<namespace>/<name>`), or undefined when unknown. */
  ownerOf(requestId: string): string | undefined;
  /** The owner's `gpuQuota` (physical-GPU equivalents on the cluster), if the policy sets one. */
  gpuQuotaOf(owner: string): number | undefined;
  /** The owner's borrowing and lending limits in the cohort, if the policy states them. */
  cohortLimitsOf?(owner: string): KueueCohortLimits | undefined;
  /**
   * The `resources.deviceClassMappings` the repository's Kueue Configuration
   * holds (none when it sets none, or cannot be read): the warning names
   * only the mappings the DRA pools need beyond them.
   */
  deviceClassMappings?: readonly KueueDeviceClassMapping[];
}

/**
 * How much of the cohort's idle quota a team may borrow, and how much of its
 * own it lends, in physical-GPU equivalents per pool (each pool's flavor gets
 * them in the pool's units, as its nominal quota). Undefined: no limit.
 *
 * @public
 */
export interface KueueCohortLimits {
  borrowingLimit?: number;
  lendingLimit?: number;
}

/** @public */
export interface KueuePlan {
  objects: KueueObject[];
  /** The ★ rule's findings: a flavor whose quotas its pool cannot provision. */
  issues: InputIssue[];
  /** The LocalQueue name each request's workload names (`<namespace>/<name>` → queue). */
  queueOfRequest: Map<string, string>;
  /** What Kueue's own setup must hold for these queues to count (DRA pools: `kueueDeviceClasses.ts`). */
  warnings: string[];
}

interface TeamHolding {
  owner: string;
  namespaces: Set<string>;
  /** Units held per pool (its ledger entries). */
  units: Map<string, number>;
}

function teamHoldings(inputs: KueueInputs): Map<string, TeamHolding> {
  const teams = new Map<string, TeamHolding>();
  for (const pool of inputs.state.pools) {
    for (const entry of pool.ledger ?? []) {
      const owner = inputs.ownerOf(entry.request);
      if (!owner || entry.replicas <= 0) continue;
      const name = teamQueueName(owner);
      const team = teams.get(name) ?? {
        owner,
        namespaces: new Set<string>(),
        units: new Map<string, number>(),
      };
      team.namespaces.add(entry.request.split('/')[0]);
      const held = entry.replicas * entry.unitsPerReplica;
      team.units.set(pool.name, (team.units.get(pool.name) ?? 0) + held);
      teams.set(name, team);
    }
  }
  return teams;
}

/**
 * A team's nominal quota on a pool: its `gpuQuota` in the pool's units (a
 * time-sliced T4 of 4 slices: 4 per GPU), else what its requests hold there.
 */
function nominalUnits(
  quotaGpus: number | undefined,
  held: number,
  unitsPerGpu: number,
): number {
  return quotaGpus === undefined ? held : Math.floor(quotaGpus * unitsPerGpu);
}

/**
 * The team's cohort limits in a pool's units. A lending limit is held to the
 * nominal quota: Kueue's webhook refuses one above it (kubernetes-sigs/kueue
 * v0.19.2 `pkg/webhooks/clusterqueue_webhook.go` `validateLendingLimit`),
 * and lending all of it is what a larger limit means.
 */
function limitUnits(
  limits: KueueCohortLimits | undefined,
  nominal: number,
  unitsPerGpu: number,
): Pick<FlavorQuota, 'borrowingLimit' | 'lendingLimit'> {
  const units = (gpus: number | undefined) =>
    gpus === undefined ? undefined : Math.floor(gpus * unitsPerGpu);
  const lending = units(limits?.lendingLimit);
  return {
    borrowingLimit: units(limits?.borrowingLimit),
    lendingLimit:
      lending === undefined ? undefined : Math.min(lending, nominal),
  };
}

/**
 * The node labels a pool's flavor selects: on GKE, the labels GKE sets on
 * the class's nodes (the class, the accelerator, the sharing: the ones its
 * docs have pods select); elsewhere the provider's pool label, which
 * Karpenter knows before a node exists.
 */
function flavorNodeLabels(
  cluster: KueueInputs['cluster'],
  pool: PoolState,
): Record<string, string> {
  if (cluster.provider === 'gke') return gkePoolNodeLabels(pool);
  return { [poolNodeLabel(cluster)]: pool.name };
}

/** @public */
export function planKueue(inputs: KueueInputs): KueuePlan {
  const { cluster, state } = inputs;
  const pools = new Map<string, PoolState>(state.pools.map(p => [p.name, p]));
  const flavors = [...pools.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(p =>
      resourceFlavor(p.name, flavorNodeLabels(cluster, p), p.taints ?? []),
    );
  const perFlavor = new Map<string, FlavorQuota[]>();
  const queues: KueueObject[] = [];
  const locals: KueueObject[] = [];
  const queueOfRequest = new Map<string, string>();
  const teams = teamHoldings(inputs);
  for (const [name, team] of [...teams.entries()].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const quotas: FlavorResourceQuota[] = [...team.units.entries()].map(
      ([poolName, held]) => {
        const pool = pools.get(poolName)!;
        const unitsPerGpu = unitsPerGpuOf(pool, state);
        const units = nominalUnits(
          inputs.gpuQuotaOf(team.owner),
          held,
          unitsPerGpu,
        );
        const quota = {
          team: name,
          units,
          ...limitUnits(
            inputs.cohortLimitsOf?.(team.owner),
            units,
            unitsPerGpu,
          ),
        };
        perFlavor.set(poolName, [...(perFlavor.get(poolName) ?? []), quota]);
        return {
          ...quota,
          flavor: poolName,
          resourceName: kueueResourceName(pool.resourceName),
        };
      },
    );
    const namespaces = [...team.namespaces].sort();
    queues.push(
      clusterQueue(name, clusterCohortName(cluster.name), namespaces, quotas),
    );
    locals.push(...namespaces.map(ns => localQueue(name, ns)));
  }
  for (const pool of pools.values()) {
    for (const entry of pool.ledger ?? []) {
      const owner = inputs.ownerOf(entry.request);
      if (owner) queueOfRequest.set(entry.request, teamQueueName(owner));
    }
  }
  const issues = [...perFlavor.entries()].flatMap(([poolName, quotas]) => {
    const pool = pools.get(poolName)!;
    return flavorQuotaIssues(
      {
        pool: poolName,
        resourceName: kueueResourceName(pool.resourceName),
        capacityUnits: poolCapacityUnits(pool, state),
        unitsPerGpu: unitsPerGpuOf(pool, state),
      },
      quotas,
      cluster.labelDomain,
    );
  });
  const dra = deviceClassMappingWarning(
    [...perFlavor.keys()].map(name => pools.get(name)!.resourceName),
    inputs.deviceClassMappings,
  );
  return {
    objects: [...flavors, ...queues, ...locals],
    issues,
    queueOfRequest,
    warnings: dra ? [dra] : [],
  };
}
