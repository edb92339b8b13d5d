import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { karpenterMachinesOf } from '../providers/karpenterMachines';
import { compareStrings } from '../text/compareStrings';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import { quantity } from './quantity';
import type { KubernetesObject } from './types';

/**
 * `<pool>-<n>gpu`: one overlay per GPU count of the pool's instance types.
 *
 * @public
 */
export function nodeOverlayName(pool: string, gpuCount: number): string {
  return `${pool}-${gpuCount}gpu`;
}

/**
 * Mixed-strategy MIG resource name: `+` becomes `.`
 * (`AddDefaultResourcesToConfig`, NVIDIA k8s-device-plugin v0.20.0
 * `internal/rm/rm.go`).
 */
function mixedMigResourceName(profile: string): string {
  return `nvidia.com/mig-${profile.replace(/\+/g, '.')}`;
}

/**
 * Extended resources one GPU of the pool offers, keyed by resource name.
 * Empty when Karpenter already knows the capacity (exclusive, DRA).
 *
 * MIG with the `single` strategy advertises its instances as `nvidia.com/gpu`
 * (instances x GPUs). The overlay then overrides a resource Karpenter derives
 * from EC2: Karpenter's code applies overlay capacity with `lo.Assign`
 * (`ApplyCapacityOverlay`, kubernetes-sigs/karpenter v1.14.1
 * `pkg/cloudprovider/types.go`), so the override takes effect, while its CRD
 * (aws/karpenter-provider-aws v1.14.1
 * `pkg/apis/crds/karpenter.sh_nodeoverlays.yaml`) only forbids cpu, memory,
 * ephemeral-storage and pods. Without it Karpenter would launch one node per
 * few pods and rely on consolidation to undo the waste.
 */
export function sharedCapacityPerGpu(plan: Plan): Record<string, number> {
  switch (plan.sharing.mode) {
    case 'time-slicing':
    case 'mps':
      return plan.sharing.slicesPerGpu
        ? { [plan.resourceName]: plan.sharing.slicesPerGpu }
        : {};
    case 'mig': {
      const layout = plan.sharing.migLayout ?? {};
      const capacity: Record<string, number> = {};
      for (const [profile, count] of Object.entries(layout)) {
        if (count <= 0) continue;
        const name =
          profile === plan.sharing.migProfile
            ? plan.resourceName
            : mixedMigResourceName(profile);
        capacity[name] = (capacity[name] ?? 0) + count;
      }
      return capacity;
    }
    default:
      return {};
  }
}

/**
 * NodeOverlays `karpenter.sh/v1alpha1` telling Karpenter the shared capacity of
 * each instance type in the pool. Karpenter only knows physical GPUs from the cloud;
 * without an overlay it never provisions for `nvidia.com/gpu.shared` or
 * `nvidia.com/mig-*` (https://github.com/kubernetes-sigs/karpenter/issues/729,
 * https://karpenter.sh/v1.14/concepts/nodeoverlays/). Capacity is absolute per
 * instance type, hence one overlay per GPU count. Scoped by
 * `karpenter.sh/nodepool` because overlays match NodePool labels, not NodePool
 * requirements.
 */
export function buildNodeOverlays(
  plan: Plan,
  cluster: ClusterProfile,
): KubernetesObject[] {
  const countLabel = karpenterMachinesOf(cluster)?.gpuCountLabel;
  const perGpu = sharedCapacityPerGpu(plan);
  if (!cluster.nodeOverlay || !countLabel || Object.keys(perGpu).length === 0) {
    return [];
  }
  const counts = [...new Set(plan.pool.gpuCounts)].sort((a, b) => a - b);
  return counts.map(gpuCount => ({
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: {
      name: nodeOverlayName(plan.pool.name, gpuCount),
      labels: {
        [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY,
        [`${cluster.labelDomain}/pool`]: plan.pool.name,
      },
    },
    spec: {
      requirements: [
        {
          key: WELL_KNOWN_KEYS.karpenterNodePool,
          operator: 'In',
          values: [plan.pool.name],
        },
        { key: countLabel, operator: 'In', values: [String(gpuCount)] },
      ],
      capacity: Object.fromEntries(
        Object.entries(perGpu)
          .sort(([a], [b]) => compareStrings(a, b))
          .map(([name, perOneGpu]) => [name, quantity(perOneGpu * gpuCount)]),
      ),
    },
  }));
}
