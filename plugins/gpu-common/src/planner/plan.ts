import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import type { GpuRequest } from '../request/types';
import { poolProviderOf } from '../providers/poolProviders';
import { indexCatalog } from './catalogIndex';
import { AUTO_MODEL, checkLargestGpu, resolveModel } from './chooseModel';
import { planAutoModelSteps } from './planAutoModel';
import { planForModelSteps } from './planForModel';
import { leftPoolChanges } from './poolOption';
import { previousHolding } from './previousHolding';
import { explainClusterApiSizing } from './clusterApiSizing';
import { onComputeClass } from './gkeComputeClassPlan';
import { clusterCatalog } from './clusterCatalog';
import { assignStaticNodes } from './staticInventory';
import { checkRequestNamespace } from './systemNamespaces';
import type { Plan, RepoState } from './types';
import { runSteps } from '../steps';

/**
 * Turns a validated request into a Plan: GPU model, sharing config, pool
 * (reused or new, deterministic name), instance types, node count, limits,
 * cost, warnings and one explanation line per decision. Pure: same inputs,
 * same plan. Throws GpuInputError (with field paths) for impossible requests.
 *
 * @public
 */
export function plan(
  request: GpuRequest,
  catalog: GpuCatalog,
  cluster: ClusterProfile,
  repoState?: RepoState,
): Plan {
  return runSteps(planSteps(request, catalog, cluster, repoState));
}

/**
 * `plan` as steps, one per existing pool it judges (`runSteps`): the
 * backend runs them in turns of its event loop, as a cluster of 2k pools
 * is 80 ms of planning on the scale bench.
 *
 * @public
 */
export function* planSteps(
  request: GpuRequest,
  catalog: GpuCatalog,
  cluster: ClusterProfile,
  repoState?: RepoState,
): Generator<void, Plan> {
  checkRequestNamespace(request, cluster);
  // A static inventory's machines only; Auto Mode's supported types only;
  // on GKE, GPUs partitioned in the sizes GKE creates only.
  const machines = clusterCatalog(catalog, cluster);
  const index = indexCatalog(machines);
  const provider = poolProviderOf(cluster).machines;
  checkLargestGpu(request, index);
  const holding = leftPoolChanges(request, index, repoState, cluster);
  const planned =
    request.spec.gpu.model === AUTO_MODEL
      ? yield* planAutoModelSteps(
          request,
          index,
          provider,
          cluster,
          repoState,
          holding,
        )
      : yield* planForModelSteps(
          request,
          resolveModel(index, request.spec.gpu.model),
          index,
          provider,
          cluster,
          repoState,
          holding,
        );
  const previous = previousHolding(request, index, repoState, cluster);
  const placed = onComputeClass(
    explainClusterApiSizing(
      assignStaticNodes(planned, cluster, machines, repoState),
      cluster,
    ),
    cluster,
  );
  return previous ? { ...placed, previous } : placed;
}
