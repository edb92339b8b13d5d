/**
 * GKE's ComputeClass (`cloud.google.com/v1`), the object a GKE pool is: the
 * machine types its nodes may be, each with the accelerator and how GKE
 * shares it, and what the nodes GKE creates for it carry. Field names from
 * Google's CRD reference (cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass)
 * and the CRD as kcl-lang/modules generated it (`gke/v1/cloud_google_com_v1_compute_class.k`,
 * commit 6a68159); `gpu.gpuSharing` (GKE ≥ 1.35.2-gke.1485000) from the
 * same reference page, not in that generated copy.
 */
import { builtinCatalog } from '../catalog/builtin';
import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import type { Plan, PoolState, Taint } from '../planner/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import { poolAnnotations } from './poolAnnotations';
import type { KubernetesObject } from './types';

/** @public */
export const COMPUTE_CLASS = {
  apiVersion: 'cloud.google.com/v1',
  kind: 'ComputeClass',
} as const;

/**
 * The node labels GKE sets on GPU nodes ("Run GPUs in GKE Standard node
 * pools", "Share GPUs with multiple workloads": pods select them with
 * `nodeSelector`).
 *
 * @public
 */
export const GKE_NODE_LABELS = {
  computeClass: 'cloud.google.com/compute-class',
  accelerator: 'cloud.google.com/gke-accelerator',
  sharingStrategy: 'cloud.google.com/gke-gpu-sharing-strategy',
  maxSharedClients: 'cloud.google.com/gke-max-shared-clients-per-gpu',
  partitionSize: 'cloud.google.com/gke-gpu-partition-size',
} as const;

/**
 * GKE taints every GPU node `nvidia.com/gpu=present:NoSchedule` (GKE docs
 * "About GPUs in GKE", node taints), and the nodes of a compute class's
 * auto-created pools `cloud.google.com/compute-class=<name>:NoSchedule`
 * ("About custom compute classes"). GKE's admission adds the matching
 * tolerations to pods that ask for GPUs or select the class; the product
 * writes them anyway, so a workload's placement reads the same in the
 * repository as in the cluster.
 */
export const GKE_GPU_TAINT: Taint = {
  key: 'nvidia.com/gpu',
  value: 'present',
  effect: 'NoSchedule',
};

/** @public */
export function computeClassTaint(name: string): Taint {
  return {
    key: GKE_NODE_LABELS.computeClass,
    value: name,
    effect: 'NoSchedule',
  };
}

/**
 * GKE's accelerator type of each catalog model it sells (the values of
 * `cloud.google.com/gke-accelerator`, cloud.google.com/compute/docs/gpus).
 */
const GKE_ACCELERATORS: Readonly<Record<string, string>> = {
  t4: 'nvidia-tesla-t4',
  l4: 'nvidia-l4',
  'a100-40gb': 'nvidia-tesla-a100',
  'a100-80gb': 'nvidia-a100-80gb',
  'h100-80gb': 'nvidia-h100-80gb',
};

/** The GKE accelerator type of a catalog model; undefined when GKE has none. */
export function gkeAcceleratorOf(model: string): string | undefined {
  return GKE_ACCELERATORS[model];
}

/**
 * The catalog model of a GKE accelerator type (a ComputeClass GPU rule's
 * `gpu.type`, the nodes' `cloud.google.com/gke-accelerator`); undefined
 * for one the catalog does not sell on GKE.
 *
 * @public
 */
export function gkeModelOfAccelerator(type: string): string | undefined {
  return Object.keys(GKE_ACCELERATORS).find(
    model => GKE_ACCELERATORS[model] === type,
  );
}

/** GKE's `gpuSharing` of a pool's sharing; undefined for whole GPUs. */
function gpuSharing({
  mode,
  slicesPerGpu,
  migProfile,
}: Pick<Plan['sharing'], 'mode' | 'slicesPerGpu' | 'migProfile'>):
  GkeGpuSharing | undefined {
  if (mode === 'time-slicing' || mode === 'mps') {
    return {
      sharingStrategy: mode === 'mps' ? 'MPS' : 'TIME_SHARING',
      maxSharedClientsPerGPU: slicesPerGpu,
    };
  }
  if (mode === 'mig') return { gpuPartitionSize: migProfile };
  return undefined;
}

/**
 * One priority rule per machine type the pool may run (cheapest per slice
 * first, the plan's order) and capacity type: the machine, its GPUs and how
 * GKE shares them.
 */
function priorities(
  plan: Plan,
  catalog: GpuCatalog,
): Record<string, unknown>[] {
  const type = gkeAcceleratorOf(plan.pool.gpuModel);
  const sharing = gpuSharing(plan.sharing);
  return plan.pool.instanceTypes.flatMap(name => {
    const machine = catalog.instanceTypes.find(
      t => t.provider === 'gcp' && t.name === name,
    );
    if (!machine || !type) return [];
    return plan.pool.capacityTypes.map(capacity => ({
      machineType: name,
      spot: capacity === 'spot',
      gpu: {
        type,
        count: machine.gpusPerNode,
        driverVersion: 'default',
        // A copy per rule: a shared object would be written as a YAML alias.
        ...(sharing ? { gpuSharing: { ...sharing } } : {}),
      },
    }));
  });
}

/**
 * The pool's ComputeClass: named after the pool, with the pool annotations
 * a NodePool carries (the readers find the pool and its ledger there).
 * `DoNotScaleUp`: a pod of the pool never gets a machine the plan did not
 * price; node-pool auto-creation on, so GKE creates the pools it needs.
 */
export function buildComputeClass(
  plan: Plan,
  cluster: ClusterProfile,
  catalog: GpuCatalog = builtinCatalog,
): KubernetesObject {
  return {
    apiVersion: COMPUTE_CLASS.apiVersion,
    kind: COMPUTE_CLASS.kind,
    metadata: {
      name: plan.pool.name,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
      annotations: poolAnnotations(plan, cluster),
    },
    spec: {
      priorities: priorities(plan, catalog),
      nodePoolAutoCreation: { enabled: true },
      whenUnsatisfiable: 'DoNotScaleUp',
    },
  };
}

/**
 * What the nodes GKE creates for a ComputeClass carry: the class label, the
 * accelerator label and the sharing labels of its first GPU rule, the GPU
 * and class taints, the machine types and capacity types of its rules. One
 * reading for the planner (the labels its pods may select) and the
 * repository readers (the pool's node shape).
 *
 * @public
 */
export interface ComputeClassNodes {
  labels: Record<string, string>;
  taints: Taint[];
  machineTypes: string[];
  capacityTypes: string[];
}

/** A GPU rule's `gpuSharing`, as written. */
interface GkeGpuSharing {
  sharingStrategy?: string;
  maxSharedClientsPerGPU?: number;
  gpuPartitionSize?: string;
}

/** The labels GKE sets on the nodes of class `name` made by a rule with `gpu`. */
function gkeNodeLabels(
  name: string,
  gpu: { type?: unknown; gpuSharing?: GkeGpuSharing } | undefined,
): Record<string, string> {
  const labels: Record<string, string> = {
    [GKE_NODE_LABELS.computeClass]: name,
  };
  if (gpu?.type) labels[GKE_NODE_LABELS.accelerator] = String(gpu.type);
  const sharing = gpu?.gpuSharing;
  if (sharing?.sharingStrategy) {
    labels[GKE_NODE_LABELS.sharingStrategy] =
      sharing.sharingStrategy === 'MPS' ? 'mps' : 'time-sharing';
    labels[GKE_NODE_LABELS.maxSharedClients] = String(
      sharing.maxSharedClientsPerGPU,
    );
  }
  if (sharing?.gpuPartitionSize) {
    labels[GKE_NODE_LABELS.partitionSize] = String(sharing.gpuPartitionSize);
  }
  return labels;
}

/**
 * The labels GKE sets on a GKE pool's nodes, from the pool as the
 * repository holds it (its class is named after it): what a Kueue flavor of
 * the pool selects and what drift expects on its nodes — the class, the
 * accelerator of its model, and how its GPUs are shared.
 *
 * @public
 */
export function gkePoolNodeLabels(
  pool: Pick<
    PoolState,
    'name' | 'gpuModel' | 'sharingMode' | 'slicesPerGpu' | 'migProfile'
  >,
): Record<string, string> {
  const type = pool.gpuModel ? gkeAcceleratorOf(pool.gpuModel) : undefined;
  const sharing = gpuSharing({ ...pool, mode: pool.sharingMode });
  return gkeNodeLabels(pool.name, {
    type,
    ...(sharing ? { gpuSharing: sharing } : {}),
  });
}

/** @public */
export function computeClassNodes(object: unknown): ComputeClassNodes {
  const value = object as {
    metadata?: { name?: unknown };
    spec?: { priorities?: unknown };
  };
  const name = String(value.metadata?.name ?? '');
  const rules = Array.isArray(value.spec?.priorities)
    ? (value.spec!.priorities as Record<string, any>[])
    : [];
  const gpu = rules.find(r => r?.gpu?.type)?.gpu;
  const labels = gkeNodeLabels(name, gpu);
  const machineTypes = [
    ...new Set(
      rules
        .map(r => r?.machineType)
        .filter(Boolean)
        .map(String),
    ),
  ];
  const capacityTypes = [
    ...new Set(rules.map(r => (r?.spot ? 'spot' : 'on-demand'))),
  ];
  return {
    labels,
    taints: gpu
      ? [GKE_GPU_TAINT, computeClassTaint(name)]
      : [computeClassTaint(name)],
    machineTypes,
    capacityTypes,
  };
}
