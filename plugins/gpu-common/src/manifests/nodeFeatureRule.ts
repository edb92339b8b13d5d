import {
  NVIDIA_PCI_VENDOR,
  pciDeviceIdsOf,
} from '../catalog/data/pciDeviceIds';
import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import type { Plan } from '../planner/types';
import { poolTaints } from './clusterApi/kubeadmConfigTemplate';
import { gpuAnnotationKeys, MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import { poolAnnotations } from './poolAnnotations';
import type { KubernetesObject } from './types';

/** NFD's NodeFeatureRule (node-feature-discovery v0.19.0, cluster-scoped). */
export const NODE_FEATURE_RULE = {
  apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
  kind: 'NodeFeatureRule',
} as const;

/**
 * The rule's node match: the pool's nodes by name (the `system.name`
 * feature's `nodename` attribute), or every node with an NVIDIA GPU of the
 * pool's model (`pci.device`, vendor 10de and the model's device ids).
 */
function matchFeatures(
  plan: Plan,
  cluster: ClusterProfile,
  catalog: GpuCatalog | undefined,
): Record<string, unknown>[] {
  if (cluster.staticNodes?.select === 'gpu') {
    const model = catalog?.models.find(m => m.id === plan.pool.gpuModel);
    const devices = model ? pciDeviceIdsOf(model) : [];
    if (devices.length === 0) {
      throw new GpuInputError([
        {
          path: 'spec.gpu.model',
          rule: 'static-gpu-pci-unknown',
          message: `no PCI device id of ${plan.pool.gpuModel} is known: its nodes cannot be chosen by GPU`,
        },
      ]);
    }
    return [
      {
        feature: 'pci.device',
        matchExpressions: {
          vendor: { op: 'In', value: [NVIDIA_PCI_VENDOR] },
          device: { op: 'In', value: devices },
        },
      },
    ];
  }
  return [
    {
      feature: 'system.name',
      matchExpressions: {
        nodename: { op: 'In', value: [...(plan.pool.nodeNames ?? [])] },
      },
    },
  ];
}

/**
 * NodeFeatureRule (`nfd.k8s-sigs.io/v1alpha1`) of a static pool: named after
 * the pool, carrying the pool's annotations as a NodePool does (the
 * repository reader finds the pool and its ledger there) and the machine its
 * nodes are; one rule that matches the pool's nodes and sets the pool's
 * labels (`nvidia.com/device-plugin.config`, `nvidia.com/mig.config`, the
 * pool label) and taints. nfd-master applies rule taints only with
 * `enableTaints` (the bootstrap turns it on).
 */
export function buildNodeFeatureRule(
  plan: Plan,
  cluster: ClusterProfile,
  catalog?: GpuCatalog,
): KubernetesObject {
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  return {
    apiVersion: NODE_FEATURE_RULE.apiVersion,
    kind: NODE_FEATURE_RULE.kind,
    metadata: {
      name: plan.pool.name,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
      annotations: {
        ...poolAnnotations(plan, cluster),
        [keys.machine]: plan.nodes.instanceType,
      },
    },
    spec: {
      rules: [
        {
          name: plan.pool.name,
          labels: { ...plan.pool.labels },
          taints: poolTaints(plan).map(t => ({ ...t })),
          matchFeatures: matchFeatures(plan, cluster, catalog),
        },
      ],
    },
  };
}
