/**
 * The allocation routes: what the index says runs where, filtered to what
 * the caller may read.
 *   GET  /allocation?entityRef=...     AllocationResponse of one catalog entity
 *   GET  /right-size?entityRef=...     RightSizeResponse: the planner's fit for what it used
 *   GET  /pools[?cluster=][&entityRef=] PoolsResponse (with entityRef: only the pools its allocations use)
 *   GET  /pools/:name[?cluster=]       PoolSummary
 *   GET  /workloads?name=[&namespace=][&kind=]
 *                                      WorkloadsResponse: the repository's workload objects of that name
 */
import type express from 'express';
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import {
  centsToUsd,
  isWorkloadKind,
  roundDecimals,
  usdToCents,
  WORKLOAD_KINDS,
  type AllocationResponse,
  type PoolSummary,
  type PoolsResponse,
  type RightSizeResponse,
  type WorkloadsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { rightSize } from '../utilization/rightSize';
import { RightSizeCache } from '../utilization/rightSizeCache';
import {
  readableEntitiesByKubernetesId,
  readableEntityOfQuery,
  selects,
  workloadSelector,
} from './entityAccess';
import { withPoolLiveData } from './poolLiveData';
import type { RouteContext } from './routeContext';

export function addAllocationRoutes(
  router: express.Router,
  { options, credentialsOf, clusterOf }: RouteContext,
): void {
  const { catalog, queries } = options;

  /**
   * The entity's allocations as the index holds them, with what the
   * cluster says about each (drift, measured use) where it was read.
   */
  const entityAllocations = async (req: express.Request) => {
    const credentials = await credentialsOf(req);
    const { entityRef, entity } = await readableEntityOfQuery(
      req.query.entityRef,
      catalog,
      credentials,
    );
    const selector = workloadSelector(entity);
    const snapshot = options.snapshot();
    const allocations = (
      snapshot.workloadsByKubernetesId.get(selector.kubernetesId) ?? []
    )
      .filter(w => selects(selector, w))
      .map(w => {
        const intent = { ...queries.allocation(snapshot, w), entityRef };
        const drift = options.drift?.driftOf(intent, snapshot);
        const allocation = drift ? { ...intent, drift } : intent;
        const utilization = options.live?.utilizationOf(allocation);
        return utilization ? { ...allocation, utilization } : allocation;
      });
    return { entityRef, snapshot, allocations };
  };

  router.get('/allocation', async (req, res) => {
    const { entityRef, snapshot, allocations } = await entityAllocations(req);
    const body: AllocationResponse = {
      entityRef,
      allocations,
      totals: {
        physicalGpus: roundDecimals(
          allocations.reduce((sum, a) => sum + a.physicalGpus, 0),
          6,
        ),
        // Summed in cents: every attributed cost is an exact number of them.
        usdPerMonth: centsToUsd(
          allocations.reduce((sum, a) => sum + usdToCents(a.usdPerMonth), 0),
        ),
      },
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    const clusters = [...new Set(allocations.map(a => a.cluster))];
    const live = [
      ...(options.live?.statusOf(clusters) ?? []),
      ...(options.drift?.statusOf(clusters) ?? []),
    ];
    if (live.length > 0) body.live = live;
    res.json(body);
  });

  // The planner's fit for what each measured allocation really used.
  const rightSizes = new RightSizeCache();
  router.get('/right-size', async (req, res) => {
    const { entityRef, snapshot, allocations } = await entityAllocations(req);
    const suggestions: RightSizeResponse['suggestions'] = [];
    for (const allocation of allocations) {
      const indexed = snapshot.clusters.get(allocation.cluster);
      if (!allocation.utilization || !indexed) continue;
      const suggestion = rightSizes.suggestionOf(allocation, snapshot, () =>
        rightSize(allocation, {
          cluster: indexed.profile,
          catalog: options.gpuCatalog,
          repoState: indexed.repoState,
          policy: options.policy,
        }),
      );
      if (suggestion) {
        suggestions.push({
          id: allocation.id,
          cluster: allocation.cluster,
          suggestion,
        });
      }
    }
    const body: RightSizeResponse = { entityRef, suggestions };
    res.json(body);
  });

  /** The live status of a visible consumer's allocation (the card's badge). */
  const consumerStatus = (
    snapshot: IndexSnapshot,
    cluster: string,
    consumer: IndexedPoolSummary['consumers'][number],
  ) => {
    if (!options.live || !consumer.kubernetesId) return undefined;
    const workload = snapshot.workloadsByKubernetesId
      .get(consumer.kubernetesId)
      ?.find(w => w.id === consumer.id && w.cluster === cluster);
    return workload
      ? options.live.utilizationOf(queries.allocation(snapshot, workload))
          ?.status
      : undefined;
  };

  /**
   * The consumers' kubernetes ids no catalog entity carries at all (asked
   * with the plugin's own credentials): nothing in the catalog guards them,
   * so they are named, with the owner their request record gives.
   */
  const idsNotInCatalog = async (ids: string[]): Promise<Set<string>> => {
    if (!options.auth || ids.length === 0) return new Set();
    const known = await readableEntitiesByKubernetesId(
      catalog,
      ids,
      await options.auth.getOwnServiceCredentials(),
    );
    return new Set(ids.filter(id => !known.has(id)));
  };

  /**
   * Pool summaries with only the consumers whose entity the caller may read,
   * and those no catalog entity holds (`inCatalog: false`); the rest are
   * counted, not named.
   */
  const visiblePools = async (
    credentials: BackstageCredentials,
    snapshot: IndexSnapshot,
    pools: IndexedPoolSummary[],
  ): Promise<PoolSummary[]> => {
    const ids = pools.flatMap(p =>
      p.consumers.map(c => c.kubernetesId).filter((id): id is string => !!id),
    );
    const entities = await readableEntitiesByKubernetesId(
      catalog,
      ids,
      credentials,
    );
    const uncatalogued = await idsNotInCatalog(
      [...new Set(ids)].filter(id => !entities.has(id)),
    );
    return withPoolLiveData(options, snapshot, pools).map(
      ({ consumers, ...pool }) => {
        const visible: PoolSummary['consumers'] = [];
        const hidden = { count: 0, units: 0, cents: 0 };
        for (const c of consumers) {
          const match = c.kubernetesId
            ? entities.get(c.kubernetesId)?.find(e => selects(e.selector, c))
            : undefined;
          if (match) {
            const status = consumerStatus(snapshot, pool.cluster, c);
            visible.push({
              id: c.id,
              entityRef: match.ref,
              ...(match.owner ? { owner: match.owner } : {}),
              units: c.units,
              usdPerMonth: c.usdPerMonth,
              ...(status ? { utilizationStatus: status } : {}),
            });
          } else if (c.kubernetesId && uncatalogued.has(c.kubernetesId)) {
            visible.push({
              id: c.id,
              inCatalog: false,
              ...(c.owner ? { owner: c.owner } : {}),
              units: c.units,
              usdPerMonth: c.usdPerMonth,
            });
          } else {
            // Counted, not named: the pool's figures still add up.
            hidden.count += 1;
            hidden.units += c.units;
            hidden.cents += usdToCents(c.usdPerMonth);
          }
        }
        return {
          ...pool,
          consumers: visible,
          ...(hidden.count > 0
            ? {
                otherConsumers: {
                  count: hidden.count,
                  units: hidden.units,
                  usdPerMonth: centsToUsd(hidden.cents),
                },
              }
            : {}),
        };
      },
    );
  };

  /** The pools (cluster and name) an entity's allocations run on, for `?entityRef=`. */
  const poolsOfEntity = async (
    req: express.Request,
  ): Promise<Set<string> | undefined> => {
    if (req.query.entityRef === undefined) return undefined;
    const { allocations } = await entityAllocations(req);
    return new Set(
      allocations.filter(a => a.pool).map(a => `${a.cluster}/${a.pool}`),
    );
  };

  router.get('/pools', async (req, res) => {
    const credentials = await credentialsOf(req);
    const snapshot = options.snapshot();
    const cluster =
      typeof req.query.cluster === 'string' && req.query.cluster !== ''
        ? clusterOf(req.query.cluster).name
        : undefined;
    const ofEntity = await poolsOfEntity(req);
    const pools = queries
      .pools(snapshot)
      .filter(p => !cluster || p.cluster === cluster)
      .filter(p => !ofEntity || ofEntity.has(`${p.cluster}/${p.name}`));
    const body: PoolsResponse = {
      pools: await visiblePools(credentials, snapshot, pools),
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    const clusters = [...new Set(pools.map(p => p.cluster))];
    const live = [
      ...(options.live?.statusOf(clusters) ?? []),
      ...(options.drift?.statusOf(clusters) ?? []),
    ];
    if (live.length > 0) body.live = live;
    const notInGit = clusters.flatMap(c => {
      const findings = options.drift?.notInGitOf(c, snapshot);
      return findings?.length ? [{ cluster: c, findings }] : [];
    });
    if (notInGit.length > 0) body.notInGit = notInGit;
    res.json(body);
  });

  router.get('/pools/:name', async (req, res) => {
    const credentials = await credentialsOf(req);
    const snapshot = options.snapshot();
    const cluster =
      typeof req.query.cluster === 'string' && req.query.cluster !== ''
        ? clusterOf(req.query.cluster).name
        : undefined;
    const matches = queries
      .pools(snapshot)
      .filter(
        p => p.name === req.params.name && (!cluster || p.cluster === cluster),
      );
    // Same name in several clusters: the default cluster's, unless ?cluster= says otherwise.
    const pool =
      matches.find(p => p.cluster === options.defaultCluster) ?? matches[0];
    if (!pool) throw new NotFoundError(`pool ${req.params.name} not found`);
    const [visible] = await visiblePools(credentials, snapshot, [pool]);
    res.json(visible);
  });

  router.get('/workloads', async (req, res) => {
    await credentialsOf(req);
    const text = (key: string) => {
      const value = req.query[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const name = text('name');
    if (!name) throw new InputError('query parameter name is required');
    const namespace = text('namespace');
    const kind = text('kind');
    if (kind !== undefined && !isWorkloadKind(kind)) {
      throw new InputError(
        `kind must be one of ${WORKLOAD_KINDS.join(', ')}; got "${kind}"`,
      );
    }
    const snapshot = options.snapshot();
    const body: WorkloadsResponse = {
      workloads: (snapshot.workloadObjectsByName.get(name) ?? []).filter(
        w =>
          (namespace === undefined || w.namespace === namespace) &&
          (kind === undefined || w.kind === kind),
      ),
      kinds: [...WORKLOAD_KINDS],
    };
    if (snapshot.revision) body.revision = snapshot.revision;
    res.json(body);
  });
}
