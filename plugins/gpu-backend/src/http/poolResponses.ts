/** `GET /pools` and `GET /pools/:name`: the index's pools as the caller may read them. */
import type express from 'express';
import { NotFoundError } from '@backstage/errors';
import type { PoolSummary, PoolsResponse } from '@gpu-gitops/plugin-gpu-common';
import { entityAllocations } from './entityAllocations';
import { liveStatusOf } from './liveStatus';
import type { RouteContext } from './routeContext';
import { poolsJsonPieces } from './poolsJson';
import { poolViews, visiblePools } from './visiblePools';

/**
 * `GET /pools[?cluster=][&entityRef=]` (with entityRef: only the pools its
 * allocations use): a `PoolsResponse` as pieces of JSON (`poolsJson.ts`).
 */
export async function poolsResponsePieces(
  context: RouteContext,
  req: express.Request,
): Promise<Iterable<string>> {
  const { options } = context;
  const credentials = await context.credentialsOf(req);
  const snapshot = options.snapshot();
  const cluster = clusterQuery(context, req);
  const ofEntity = await poolsOfEntity(context, req);
  const all = options.queries.pools(snapshot);
  // The whole list as the index keeps it when nothing narrows it: what
  // every caller's view shares is kept with it (`poolViews`).
  const pools =
    cluster || ofEntity
      ? all.filter(
          p =>
            (!cluster || p.cluster === cluster) &&
            (!ofEntity || ofEntity.has(`${p.cluster}/${p.name}`)),
        )
      : all;
  const views = await poolViews(options, credentials, snapshot, pools);
  const rest: Omit<PoolsResponse, 'pools'> = {};
  if (snapshot.revision) rest.revision = snapshot.revision;
  const clusters = [...new Set(pools.map(p => p.cluster))];
  const live = liveStatusOf(options, clusters);
  if (live.length > 0) rest.live = live;
  const notInGit = clusters.flatMap(c => {
    const findings = options.drift?.notInGitOf(c, snapshot);
    return findings?.length ? [{ cluster: c, findings }] : [];
  });
  if (notInGit.length > 0) rest.notInGit = notInGit;
  return poolsJsonPieces(views, rest);
}

/** `GET /pools/:name[?cluster=]`. */
export async function poolResponse(
  context: RouteContext,
  req: express.Request,
): Promise<PoolSummary> {
  const { options } = context;
  const credentials = await context.credentialsOf(req);
  const snapshot = options.snapshot();
  const cluster = clusterQuery(context, req);
  const matches = options.queries
    .pools(snapshot)
    .filter(
      p => p.name === req.params.name && (!cluster || p.cluster === cluster),
    );
  // Same name in several clusters: the default cluster's, unless ?cluster= says otherwise.
  const pool =
    matches.find(p => p.cluster === options.defaultCluster) ?? matches[0];
  if (!pool) throw new NotFoundError(`pool ${req.params.name} not found`);
  const [visible] = await visiblePools(options, credentials, snapshot, [pool]);
  return visible;
}

/** The cluster `?cluster=` names (unknown names are a 400); undefined when not asked. */
function clusterQuery(
  { clusterOf }: RouteContext,
  req: express.Request,
): string | undefined {
  return typeof req.query.cluster === 'string' && req.query.cluster !== ''
    ? clusterOf(req.query.cluster).name
    : undefined;
}

/** The pools (cluster and name) an entity's allocations run on, for `?entityRef=`. */
async function poolsOfEntity(
  context: RouteContext,
  req: express.Request,
): Promise<Set<string> | undefined> {
  if (req.query.entityRef === undefined) return undefined;
  const { allocations } = await entityAllocations(context, req);
  return new Set(
    allocations.filter(a => a.pool).map(a => `${a.cluster}/${a.pool}`),
  );
}
