import { centsToUsd, formatCents } from '../format/money';
import { GpuInputError } from '../errors';
import {
  DEFAULT_DEVICE_PLUGIN_CONFIG,
  DEFAULT_MIG_CONFIG,
} from '../manifests/defaultConfigNames';
import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { indexCatalog, type CatalogIndex } from '../planner/catalogIndex';
import { costOfPool } from '../planner/poolCost';
import { ledgerOf, poolWithout, requestId } from '../planner/poolLimits';
import { sizingOfPool } from '../planner/poolSizing';
import type { PoolState, RepoState } from '../planner/types';
import type { GpuRequest } from '../request/types';
import { releaseSavingsText } from './releaseSavings';
import type { ReleasedPool, ReleasePlan } from './types';

/**
 * Plans the release of a request the repository holds: each pool whose
 * ledger names it is priced before and after without it (the same cost
 * model and limit rule a plan uses), a managed pool left with an empty
 * ledger is removed, and a config only removed pools selected goes too.
 * Pure; throws GpuInputError when no pool and no record hold the request.
 *
 * @public
 */
export function planRelease(
  request: GpuRequest,
  catalog: GpuCatalog,
  cluster: ClusterProfile,
  repoState: RepoState,
): ReleasePlan {
  const index = indexCatalog(catalog);
  const id = requestId(request);
  const released = repoState.pools.flatMap(pool => {
    const one = releaseFromPool(pool, request, index, cluster, repoState);
    return one ? [one] : [];
  });
  const pools = released.map(r => r.pool);
  const savedCents = sum(released.map(r => r.savedCents));
  return {
    request,
    cluster: cluster.name,
    pools,
    ...unusedConfigsOf(pools, repoState),
    savedUsdPerMonth: centsToUsd(savedCents),
    attributedUsdPerMonth: centsToUsd(
      sum(released.map(r => r.attributedCents)),
    ),
    savings: releaseSavingsText({
      savedUsdPerMonth: centsToUsd(savedCents),
      pools,
    }),
    priceKnown: released.every(r => r.priceKnown),
    explanation: pools.map(p => poolExplanation(p, id)),
  };
}

/** One pool's part of a release, with the cents it adds to the plan's sums. */
interface PoolRelease {
  pool: ReleasedPool;
  /** What the pool costs less per month. */
  savedCents: number;
  /** What the request was billed in the pool. */
  attributedCents: number;
  priceKnown: boolean;
}

/** The pool without the request, priced before and after; undefined when its ledger does not name the request. */
function releaseFromPool(
  pool: PoolState,
  request: GpuRequest,
  index: CatalogIndex,
  cluster: ClusterProfile,
  repoState: RepoState,
): PoolRelease | undefined {
  const sizing = sizingOfPool(pool, index, repoState, cluster);
  const capacity = poolWithout(pool, request, repoState, sizing);
  if (!capacity) return undefined;
  const id = requestId(request);
  const held = ledgerOf(pool, repoState).ledger.find(e => e.request === id)!;
  const before = costOfPool(pool, repoState, index, undefined, cluster);
  const after = costOfPool(pool, repoState, index, capacity.ledger, cluster);
  const removed = (pool.managed ?? false) && capacity.ledger.length === 0;
  const afterCents = removed ? 0 : after.totalCents;
  const share = before.shares.find(s => s.request === id)?.cents ?? 0;
  return {
    pool: {
      name: pool.name,
      path: pool.path,
      managed: pool.managed ?? false,
      resourceName: pool.resourceName,
      releasedUnits: held.replicas * held.unitsPerReplica,
      ledger: capacity.ledger,
      limits: capacity.limits,
      ...(capacity.limitFloor !== undefined
        ? { limitFloor: capacity.limitFloor }
        : {}),
      removed,
      nodesBefore: before.nodes,
      nodesAfter: removed ? 0 : after.nodes,
      usdPerMonthBefore: centsToUsd(before.totalCents),
      usdPerMonthAfter: centsToUsd(afterCents),
      attributedUsdPerMonth: centsToUsd(share),
      ...(pool.deviceConfigName
        ? { deviceConfigName: pool.deviceConfigName }
        : {}),
      ...(pool.migConfigName ? { migConfigName: pool.migConfigName } : {}),
    },
    savedCents: before.totalCents - afterCents,
    attributedCents: share,
    priceKnown: before.priceKnown,
  };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The device-plugin and mig-parted configs the removed pools leave unused. */
function unusedConfigsOf(
  pools: ReleasedPool[],
  repoState: RepoState,
): Pick<ReleasePlan, 'unusedDevicePluginConfigs' | 'unusedMigConfigs'> {
  const removed = pools.filter(p => p.removed);
  const kept = repoState.pools.filter(
    p => !removed.some(r => r.name === p.name),
  );
  return {
    unusedDevicePluginConfigs: unusedConfigs(
      removed.map(p => p.deviceConfigName),
      kept.map(p => p.deviceConfigName),
      DEFAULT_DEVICE_PLUGIN_CONFIG,
    ),
    unusedMigConfigs: unusedConfigs(
      removed.map(p => p.migConfigName),
      kept.map(p => p.migConfigName),
      DEFAULT_MIG_CONFIG,
    ),
  };
}

/** One line of the release's explanation for a pool: it goes, or what it keeps. */
function poolExplanation(p: ReleasedPool, id: string): string {
  return p.removed
    ? `pool ${p.name}: ${id} was its last request, so the pool goes (${p.nodesBefore} -> 0 nodes, ${formatCents(Math.round(p.usdPerMonthBefore * 100))}/month saved).`
    : `pool ${p.name}: ${id} held ${p.releasedUnits} ${p.resourceName}; ${p.ledger.length} request(s) stay, ${p.nodesBefore} -> ${p.nodesAfter} nodes.`;
}

/** Configs removed pools selected that no kept pool selects (the default never goes). */
function unusedConfigs(
  ofRemoved: (string | undefined)[],
  ofKept: (string | undefined)[],
  defaultName: string,
): string[] {
  const selected = new Set(ofKept);
  return [...new Set(ofRemoved)]
    .filter((n): n is string => n !== undefined && n !== defaultName)
    .filter(n => !selected.has(n))
    .sort();
}

/**
 * The refusal for a request the repository does not hold: its pull request
 * is not merged yet, or it was released already.
 *
 * @public
 */
export function requestNotHeld(
  id: string,
  where: string,
  detail: string,
): GpuInputError {
  return new GpuInputError([
    {
      path: 'metadata.name',
      rule: 'not-in-repository',
      message: `${id} is not in ${where}: ${detail}`,
    },
  ]);
}
