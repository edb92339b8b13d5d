/**
 * The Helm values of the DRA driver release the bootstrap writes
 * (dra-driver-nvidia-gpu@95932046 `deployments/helm/dra-driver-nvidia-gpu/values.yaml`,
 * vendored in `__fixtures__/`):
 * - `gpuResourcesEnabledOverride: true`: without it the chart refuses to
 *   render `resources.gpus.enabled` (`templates/validation.yaml`), and no
 *   GPU is published;
 * - its kubelet plugin runs on the DRA pools' nodes only: the product labels
 *   them `nvidia.com/gpu.deploy.device-plugin=false` (gpu-common
 *   `planner/sharingDra.ts`), the label that keeps the GPU Operator's device
 *   plugin off them, so on every GPU node exactly one of the two runs (the
 *   chart's default affinity, any NVIDIA GPU node, would put both on the
 *   device-plugin pools);
 * - it tolerates the taint of the product's pools (the chart's default is
 *   `nvidia.com/gpu` only);
 * - the feature gates the profile chooses: `ConsumableShares` with the
 *   integer `consumableShares` when the profile shares GPUs
 *   (`dra.consumableShares`), none otherwise; never `DynamicMIG`.
 */
import {
  DEVICE_PLUGIN_DEPLOY_LABEL,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { gpuNodeTolerations } from '../gpuOperatorValues';
import { CONSUMABLE_SHARES_GATE } from './draDriverChart';

/** The kubelet plugin's node affinity: the nodes the GPU Operator's device plugin is kept off. */
export const DRA_NODES_AFFINITY = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchExpressions: [
            {
              key: DEVICE_PLUGIN_DEPLOY_LABEL,
              operator: 'In',
              values: ['false'],
            },
          ],
        },
      ],
    },
  },
};

/** The gates and the sharing value the profile's `dra.consumableShares` asks for. */
function sharingValues(cluster: ClusterProfile): Record<string, unknown> {
  const shares = cluster.dra?.consumableShares;
  if (shares === undefined) return {};
  return {
    // The chart's value is a string ("disabled", "memory", "unlimited" or a count).
    consumableShares: String(shares),
    featureGates: { [CONSUMABLE_SHARES_GATE]: true },
  };
}

export function buildDraDriverValues(
  cluster: ClusterProfile,
): Record<string, unknown> {
  return {
    gpuResourcesEnabledOverride: true,
    resources: { gpus: { enabled: true } },
    ...sharingValues(cluster),
    kubeletPlugin: {
      affinity: DRA_NODES_AFFINITY,
      tolerations: gpuNodeTolerations(cluster),
    },
  };
}
