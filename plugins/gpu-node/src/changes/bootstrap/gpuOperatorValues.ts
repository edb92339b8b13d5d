import {
  DEFAULT_DEVICE_PLUGIN_CONFIG,
  DEFAULT_MIG_CONFIG,
  type ClusterGpuStack,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

/** NFD's label for NVIDIA PCI devices (vendor 10de) and the operator's own GPU label. */
export const NFD_NVIDIA_PCI_LABEL =
  'feature.node.kubernetes.io/pci-10de.present';
export const GPU_PRESENT_LABEL = 'nvidia.com/gpu.present';

/** Resource names dcgm-exporter must map to pods besides nvidia.com/gpu and nvidia.com/mig-*. */
export const DCGM_RESOURCE_NAMES = ['nvidia.com/gpu', 'nvidia.com/gpu.shared'];

/** Key of the default (no sharing) device-plugin config; defined in gpu-common, re-exported for the bootstrap's files. */
export { DEFAULT_DEVICE_PLUGIN_CONFIG };

/**
 * The configs GPU nodes without a config label get: a key of the
 * device-plugin ConfigMap (`devicePlugin.config.default`) and a mig-parted
 * entry (`migManager.config.default`); empty for none
 * (`operatorConfigMaps.ts` says which a ConfigMap allows).
 */
export interface OperatorConfigDefaults {
  devicePlugin: string;
  migManager: string;
}

/**
 * What a DaemonSet of the GPU stack tolerates to run on the GPU nodes: the
 * taint the product's pools carry, and NVIDIA's own `nvidia.com/gpu`.
 */
export function gpuNodeTolerations(
  cluster: Pick<ClusterProfile, 'gpuTaintKey'>,
): Record<string, string>[] {
  const gpuToleration = {
    key: cluster.gpuTaintKey,
    operator: 'Exists',
    effect: 'NoSchedule',
  };
  return cluster.gpuTaintKey === 'nvidia.com/gpu'
    ? [gpuToleration]
    : [
        gpuToleration,
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      ];
}

/** Which of its operands the GPU Operator runs that something else may run instead. */
export interface OperatorOperands {
  devicePlugin: boolean;
  /** GPU feature discovery. */
  gfd: boolean;
  /** Its Node Feature Discovery subchart. */
  nfd: boolean;
}

const ALL_OPERANDS: OperatorOperands = {
  devicePlugin: true,
  gfd: true,
  nfd: true,
};

/**
 * What the bootstrap's GPU Operator runs beside what `stack` runs on the GPU
 * nodes: no second device plugin (two would advertise every GPU twice), no
 * second GFD, and no second NFD when the standalone chart's runs on the GPU
 * nodes (else the operator's labels them: one NFD only once that one can).
 */
export function operatorOperands(stack: ClusterGpuStack): OperatorOperands {
  const discovery = stack.chartFeatureDiscovery;
  return {
    devicePlugin: stack.devicePlugin === undefined,
    gfd: !discovery?.gfd,
    nfd: !(discovery?.nfd && discovery.nfdOnGpuNodes),
  };
}

/**
 * Helm values for the NVIDIA GPU Operator chart, once per cluster (each of
 * `operands` false where something else already runs it on the GPU nodes,
 * `operatorOperands`):
 * - operands (device plugin, GFD, DCGM exporter, MIG manager) tolerate the
 *   GPU taint our pools carry; the operator itself stays off GPU nodes
 *   (affinity), so GPU nodes can scale to zero;
 * - ClusterPolicy devicePlugin.config names the ConfigMap of named configs our
 *   PRs add to (or the team's own), with `default` for nodes without a
 *   config label;
 * - migManager.config names the mig-parted ConfigMap (`all-disabled` default);
 * - mig.strategy from the cluster profile;
 * - DCGM exporter maps nvidia.com/gpu.shared pods (NVIDIA_RESOURCE_NAMES), or
 *   time-sliced pods get no pod labels in metrics.
 */
export function buildGpuOperatorValues(
  cluster: ClusterProfile,
  defaults: OperatorConfigDefaults = {
    devicePlugin: DEFAULT_DEVICE_PLUGIN_CONFIG,
    migManager: DEFAULT_MIG_CONFIG,
  },
  operands: OperatorOperands = ALL_OPERANDS,
): Record<string, unknown> {
  const tolerations = gpuNodeTolerations(cluster);
  return {
    // The EKS AL2023 NVIDIA AMI ships the driver and container toolkit.
    driver: { enabled: false },
    toolkit: { enabled: false },
    nfd: { enabled: operands.nfd },
    ...(operands.nfd
      ? {
          'node-feature-discovery': {
            worker: {
              // NFD labels pci-10de on GPU nodes, so it must run there too.
              tolerations,
            },
            // Static pools are NodeFeatureRules whose taints nfd-master applies
            // only with -enable-taints: the NFD subchart (v0.19.0, pinned by
            // gpu-operator v26.7.0) passes it for `master.enableTaints`.
            ...(cluster.provider === 'static' && cluster.staticNodes
              ? { master: { enableTaints: true } }
              : {}),
          },
        }
      : {}),
    // The chart's default is true (gpu-operator v26.7.0 values.yaml).
    ...(operands.gfd ? {} : { gfd: { enabled: false } }),
    operator: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: GPU_PRESENT_LABEL, operator: 'DoesNotExist' },
                  { key: NFD_NVIDIA_PCI_LABEL, operator: 'DoesNotExist' },
                ],
              },
            ],
          },
        },
      },
    },
    daemonsets: {
      // Operands run only where the operator labels GPUs (nvidia.com/gpu.present,
      // derived from NFD's pci-10de label); they must tolerate our GPU taint.
      tolerations,
    },
    mig: { strategy: cluster.migStrategy },
    devicePlugin: {
      enabled: operands.devicePlugin,
      config: {
        create: false,
        name: cluster.devicePluginConfigMap.name,
        default: defaults.devicePlugin,
      },
    },
    migManager: {
      enabled: true,
      config: {
        create: false,
        name: cluster.migPartedConfigMap.name,
        default: defaults.migManager,
      },
    },
    dcgmExporter: {
      enabled: true,
      env: [
        { name: 'NVIDIA_RESOURCE_NAMES', value: DCGM_RESOURCE_NAMES.join(',') },
      ],
      serviceMonitor: { enabled: true },
    },
  };
}
