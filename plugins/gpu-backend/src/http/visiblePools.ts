/**
 * Pool summaries as a caller may read them: the consumers whose entity the
 * caller may read are named, so are those no catalog entity holds
 * (`inCatalog: false`); the rest are counted, not named.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  centsToUsd,
  usdToCents,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { readableEntitiesByKubernetesId, selects } from './entityAccess';
import { poolLiveData } from './poolLiveData';
import type { RouterOptions } from './routeContext';

type IndexedConsumer = IndexedPoolSummary['consumers'][number];
type ReadableEntities = Awaited<
  ReturnType<typeof readableEntitiesByKubernetesId>
>;

/**
 * A pool as one caller sees it: the index's pool, and what the caller's
 * view puts in place of its consumers (named or counted) with the live
 * figures and drift. `GET /pools` writes the index's part once per snapshot
 * (`poolsJson.ts`).
 */
export interface PoolView {
  indexed: IndexedPoolSummary;
  view: Pick<
    PoolSummary,
    'consumers' | 'otherConsumers' | 'utilization' | 'drift'
  >;
}

/**
 * The kubernetes ids of the pools' consumers: the same for every caller,
 * so kept for a list the index keeps (its whole list of a snapshot's pools,
 * the GPU page's): 100k ids at a large platform's size.
 */
const consumerIdsByList = new WeakMap<
  readonly IndexedPoolSummary[],
  ReadonlySet<string>
>();

function consumerIdsOf(
  pools: readonly IndexedPoolSummary[],
): ReadonlySet<string> {
  let ids = consumerIdsByList.get(pools);
  if (!ids) {
    const found = new Set<string>();
    for (const pool of pools) {
      for (const c of pool.consumers) {
        if (c.kubernetesId) found.add(c.kubernetesId);
      }
    }
    ids = found;
    consumerIdsByList.set(pools, ids);
  }
  return ids;
}

/**
 * The pools as one caller sees them, each view built when it is drawn: the
 * GPU page draws them a piece at a time as the socket takes the last
 * (`poolsJson.ts`), so a request holds one piece's views at a time, not
 * 20k views with their 100k consumers for as long as a slow reader takes
 * to read the page (and one such page per reader). The caller's readable
 * entities and each pool's live figures and drift are read before the
 * first view is drawn (`poolLiveData`); a named consumer's status badge is
 * read as its piece is written, as `GET /allocation` reads it.
 */
export async function poolViews(
  options: RouterOptions,
  credentials: BackstageCredentials,
  snapshot: IndexSnapshot,
  pools: IndexedPoolSummary[],
): Promise<Iterable<PoolView>> {
  const ids = consumerIdsOf(pools);
  const entities = await readableEntitiesByKubernetesId(
    options.catalog,
    ids,
    credentials,
  );
  // Most callers may read every consumer's entity: nothing left to ask.
  const unread: string[] = [];
  if (entities.size < ids.size) {
    for (const id of ids) if (!entities.has(id)) unread.push(id);
  }
  const uncatalogued = await idsNotInCatalog(options, unread);
  const known = { entities, uncatalogued };
  const liveDataOf = poolLiveData(options, snapshot, pools);
  // Field by field, without spreads' temporary objects: a page of 20k pools
  // builds 20k views per request.
  const viewOf = (pool: IndexedPoolSummary): PoolView['view'] => {
    const view: PoolView['view'] = { consumers: [] };
    const hidden = { count: 0, units: 0, cents: 0 };
    for (const c of pool.consumers) {
      const named = namedConsumer(options, snapshot, pool.cluster, c, known);
      if (named) {
        view.consumers.push(named);
      } else {
        // Counted, not named: the pool's figures still add up.
        hidden.count += 1;
        hidden.units += c.units;
        hidden.cents += usdToCents(c.usdPerMonth);
      }
    }
    if (hidden.count > 0) {
      view.otherConsumers = {
        count: hidden.count,
        units: hidden.units,
        usdPerMonth: centsToUsd(hidden.cents),
      };
    }
    const live = liveDataOf(pool);
    if (live.utilization) view.utilization = live.utilization;
    if (live.drift) view.drift = live.drift;
    return view;
  };
  return (function* views() {
    for (const pool of pools) {
      yield { indexed: pool, view: viewOf(pool) };
    }
  })();
}

/**
 * The index's fields of a pool that no caller's view replaces: one rule
 * for the object form below and the kept bytes of `poolsJson.ts`, so the
 * two forms of the GPU page cannot drift apart.
 */
export function indexedFields(
  pool: IndexedPoolSummary,
): Omit<IndexedPoolSummary, 'consumers' | 'utilization' | 'drift'> {
  const { consumers, utilization, drift, ...fields } = pool;
  return fields;
}

/** The pools as the caller sees them. */
export async function visiblePools(
  options: RouterOptions,
  credentials: BackstageCredentials,
  snapshot: IndexSnapshot,
  pools: IndexedPoolSummary[],
): Promise<PoolSummary[]> {
  const views = await poolViews(options, credentials, snapshot, pools);
  return Array.from(views, ({ indexed, view }) => ({
    ...indexedFields(indexed),
    ...view,
  }));
}

/** The consumer as the caller may see it named; undefined when it is only counted. */
function namedConsumer(
  options: RouterOptions,
  snapshot: IndexSnapshot,
  cluster: string,
  c: IndexedConsumer,
  known: { entities: ReadableEntities; uncatalogued: Set<string> },
): PoolSummary['consumers'][number] | undefined {
  const match = c.kubernetesId
    ? known.entities.get(c.kubernetesId)?.find(e => selects(e.selector, c))
    : undefined;
  if (match) {
    const status = consumerStatus(options, snapshot, cluster, c);
    return {
      id: c.id,
      entityRef: match.ref,
      ...(match.owner ? { owner: match.owner } : {}),
      units: c.units,
      usdPerMonth: c.usdPerMonth,
      ...(status ? { utilizationStatus: status } : {}),
    };
  }
  if (c.kubernetesId && known.uncatalogued.has(c.kubernetesId)) {
    return {
      id: c.id,
      inCatalog: false,
      ...(c.owner ? { owner: c.owner } : {}),
      units: c.units,
      usdPerMonth: c.usdPerMonth,
    };
  }
  return undefined;
}

/** The live status of a visible consumer's allocation (the card's badge). */
function consumerStatus(
  { live, queries }: RouterOptions,
  snapshot: IndexSnapshot,
  cluster: string,
  consumer: IndexedConsumer,
) {
  if (!live || !consumer.kubernetesId) return undefined;
  const workload = snapshot.workloadsByKubernetesId
    .get(consumer.kubernetesId)
    ?.find(w => w.id === consumer.id && w.cluster === cluster);
  return workload
    ? live.utilizationOf(queries.allocation(snapshot, workload))?.status
    : undefined;
}

/**
 * The consumers' kubernetes ids no catalog entity carries at all (asked
 * with the plugin's own credentials): nothing in the catalog guards them,
 * so they are named, with the owner their request record gives.
 */
async function idsNotInCatalog(
  { auth, catalog }: RouterOptions,
  ids: string[],
): Promise<Set<string>> {
  if (!auth || ids.length === 0) return new Set();
  const known = await readableEntitiesByKubernetesId(
    catalog,
    ids,
    await auth.getOwnServiceCredentials(),
  );
  return new Set(ids.filter(id => !known.has(id)));
}
