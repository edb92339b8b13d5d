import { centsToUsd, formatCents } from '../format/money';
import { GpuInputError } from '../errors';
import {
  DEFAULT_DEVICE_PLUGIN_CONFIG,
  DEFAULT_MIG_CONFIG,
} from '../manifests/defaultConfigNames';
import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { indexCatalog } from '../planner/catalogIndex';
import { costOfPool } from '../planner/poolCost';
import { ledgerOf, poolWithout, requestId } from '../planner/poolLimits';
import { sizingOfPool } from '../planner/poolSizing';
import type { RepoState } from '../planner/types';
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
  const pools: ReleasedPool[] = [];
  let priceKnown = true;
  let savedCents = 0;
  let attributedCents = 0;
  for (const pool of repoState.pools) {
    const capacity = poolWithout(
      pool,
      request,
      repoState,
      sizingOfPool(pool, index, repoState, cluster),
    );
    if (!capacity) continue;
    const held = ledgerOf(pool, repoState).ledger.find(e => e.request === id)!;
    const before = costOfPool(pool, repoState, index, undefined, cluster);
    const after = costOfPool(pool, repoState, index, capacity.ledger, cluster);
    priceKnown &&= before.priceKnown;
    const removed = (pool.managed ?? false) && capacity.ledger.length === 0;
    const afterCents = removed ? 0 : after.totalCents;
    savedCents += before.totalCents - afterCents;
    const share = before.shares.find(s => s.request === id)?.cents ?? 0;
    attributedCents += share;
    pools.push({
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
    });
  }
  const removed = pools.filter(p => p.removed);
  const kept = repoState.pools.filter(
    p => !removed.some(r => r.name === p.name),
  );
  const plan: ReleasePlan = {
    request,
    cluster: cluster.name,
    pools,
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
    savedUsdPerMonth: centsToUsd(savedCents),
    attributedUsdPerMonth: centsToUsd(attributedCents),
    savings: releaseSavingsText({
      savedUsdPerMonth: centsToUsd(savedCents),
      pools,
    }),
    priceKnown,
    explanation: pools.map(p =>
      p.removed
        ? `pool ${p.name}: ${id} was its last request, so the pool goes (${p.nodesBefore} -> 0 nodes, ${formatCents(Math.round(p.usdPerMonthBefore * 100))}/month saved).`
        : `pool ${p.name}: ${id} held ${p.releasedUnits} ${p.resourceName}; ${p.ledger.length} request(s) stay, ${p.nodesBefore} -> ${p.nodesAfter} nodes.`,
    ),
  };
  return plan;
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
