import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import {
  buildComputeClass,
  computeClassNodes,
  GKE_GPU_TAINT,
} from '../manifests/computeClass';
import { WHOLE_GPU_RESOURCE } from './modeDecision';
import type { Plan } from './types';

/** GKE's bound on `maxSharedClientsPerGPU` (GKE docs, GPU time-sharing and MPS: 2 to 48). */
const GKE_MAX_SHARED_CLIENTS = 48;

/**
 * The resource pods of a mode ask for on `cluster`: on GKE every share,
 * partition or GPU is `nvidia.com/gpu` (see `onComputeClass`); elsewhere
 * the mode's own (`resourceName`, as the device plugin's config names it).
 */
export function resourceOnCluster(
  resourceName: string,
  cluster: Pick<ClusterProfile, 'provider'>,
): string {
  return cluster.provider === 'gke' ? WHOLE_GPU_RESOURCE : resourceName;
}

/**
 * The plan as GKE runs it: GKE's device plugin shares the GPUs as the
 * ComputeClass says and advertises every share, MIG partition or GPU as
 * `nvidia.com/gpu` ("Share GPUs with multiple workloads using GPU
 * time-sharing": a node of one L4 and 4 clients allocates `nvidia.com/gpu:
 * 4`), so the pool's resource is `nvidia.com/gpu`, its configs are none of
 * the product's, and its nodes carry the labels and taints GKE sets
 * (`computeClassNodes`), not the product's config labels. Other clusters'
 * plans as they are.
 */
export function onComputeClass(plan: Plan, cluster: ClusterProfile): Plan {
  if (cluster.provider !== 'gke') return plan;
  const { mode, slicesPerGpu, migProfile, migLayout } = plan.sharing;
  if (slicesPerGpu !== undefined && slicesPerGpu > GKE_MAX_SHARED_CLIENTS) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.slicesPerGpu',
        rule: 'gke-max-shared-clients',
        message: `GKE shares a GPU among at most ${GKE_MAX_SHARED_CLIENTS} clients (ComputeClass gpuSharing.maxSharedClientsPerGPU: 2 to ${GKE_MAX_SHARED_CLIENTS}); the plan needs ${slicesPerGpu}: ask for fewer slices per GPU or more memory per replica`,
      },
    ]);
  }
  const limits = Object.fromEntries(
    Object.entries(plan.pool.limits).map(([resource, value]) => [
      resource === plan.resourceName
        ? resourceOnCluster(resource, cluster)
        : resource,
      value,
    ]),
  );
  const planned: Plan = {
    ...plan,
    resourceName: resourceOnCluster(plan.resourceName, cluster),
    sharing: {
      mode,
      sharedByProvider: true,
      ...(slicesPerGpu !== undefined ? { slicesPerGpu } : {}),
      ...(migProfile !== undefined ? { migProfile } : {}),
      ...(migLayout !== undefined ? { migLayout } : {}),
    },
  };
  const nodes = computeClassNodes(buildComputeClass(planned, cluster));
  const [, ...otherTaints] = nodes.taints;
  return {
    ...planned,
    pool: {
      ...plan.pool,
      limits,
      labels: nodes.labels,
      taint: GKE_GPU_TAINT,
      otherTaints,
    },
    explanation: [
      ...plan.explanation,
      `GKE: pool ${plan.pool.name} is ComputeClass ${plan.pool.name}; GKE creates its node pools and its device plugin ${mode === 'exclusive' ? 'advertises each GPU' : 'shares each GPU as the class says and advertises each share'} as ${WHOLE_GPU_RESOURCE}: no device-plugin or mig-parted config is written.`,
    ],
  };
}
