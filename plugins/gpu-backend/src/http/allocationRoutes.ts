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
import { InputError } from '@backstage/errors';
import {
  isWorkloadKind,
  WORKLOAD_KINDS,
  type WorkloadsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { RightSizeCache } from '../utilization/rightSizeCache';
import { allocationResponse, rightSizeResponse } from './entityAllocations';
import { poolResponse, poolsResponsePieces } from './poolResponses';
import type { RouteContext } from './routeContext';
import { writePieces } from './writePieces';

export function addAllocationRoutes(
  router: express.Router,
  context: RouteContext,
): void {
  router.get('/allocation', async (req, res) => {
    res.json(await allocationResponse(context, req));
  });
  const rightSizes = new RightSizeCache();
  router.get('/right-size', async (req, res) => {
    res.json(await rightSizeResponse(context, req, rightSizes));
  });
  router.get('/pools', async (req, res) => {
    const pieces = await poolsResponsePieces(context, req);
    res.type('json');
    await writePieces(res, pieces);
  });
  router.get('/pools/:name', async (req, res) => {
    res.json(await poolResponse(context, req));
  });
  router.get('/workloads', async (req, res) => {
    await context.credentialsOf(req);
    res.json(workloadsResponse(context, req));
  });
}

/** `GET /workloads?name=[&namespace=][&kind=]`: the repository's workload objects of that name. */
function workloadsResponse(
  { options }: RouteContext,
  req: express.Request,
): WorkloadsResponse {
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
  return body;
}
