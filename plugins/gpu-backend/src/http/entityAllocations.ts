/**
 * A catalog entity's allocations, as `/allocation` and `/right-size` answer
 * them and `/pools?entityRef=` filters by them.
 */
import type express from 'express';
import {
  centsToUsd,
  roundDecimals,
  usdToCents,
  type AllocationResponse,
  type RightSizeResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { rightSize } from '../utilization/rightSize';
import type { RightSizeCache } from '../utilization/rightSizeCache';
import {
  readableEntityOfQuery,
  selects,
  workloadSelector,
} from './entityAccess';
import { liveStatusOf } from './liveStatus';
import type { RouteContext } from './routeContext';

/**
 * The entity's allocations as the index holds them, with what the
 * cluster says about each (drift, measured use) where it was read.
 */
export async function entityAllocations(
  { options, credentialsOf }: RouteContext,
  req: express.Request,
) {
  const credentials = await credentialsOf(req);
  const { entityRef, entity } = await readableEntityOfQuery(
    req.query.entityRef,
    options.catalog,
    credentials,
  );
  const selector = workloadSelector(entity);
  const snapshot = options.snapshot();
  const allocations = (
    snapshot.workloadsByKubernetesId.get(selector.kubernetesId) ?? []
  )
    .filter(w => selects(selector, w))
    .map(w => {
      const intent = { ...options.queries.allocation(snapshot, w), entityRef };
      const drift = options.drift?.driftOf(intent, snapshot);
      const allocation = drift ? { ...intent, drift } : intent;
      const utilization = options.live?.utilizationOf(allocation);
      return utilization ? { ...allocation, utilization } : allocation;
    });
  return { entityRef, snapshot, allocations };
}

/** `GET /allocation`: the entity's allocations, their totals and the clusters' live status. */
export async function allocationResponse(
  context: RouteContext,
  req: express.Request,
): Promise<AllocationResponse> {
  const { entityRef, snapshot, allocations } = await entityAllocations(
    context,
    req,
  );
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
  const live = liveStatusOf(context.options, [
    ...new Set(allocations.map(a => a.cluster)),
  ]);
  if (live.length > 0) body.live = live;
  return body;
}

/** `GET /right-size`: the planner's fit for what each measured allocation really used. */
export async function rightSizeResponse(
  context: RouteContext,
  req: express.Request,
  rightSizes: RightSizeCache,
): Promise<RightSizeResponse> {
  const { options } = context;
  const { entityRef, snapshot, allocations } = await entityAllocations(
    context,
    req,
  );
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
  return { entityRef, suggestions };
}
