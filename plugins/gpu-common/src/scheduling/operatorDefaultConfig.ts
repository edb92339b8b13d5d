/**
 * The config the GPU Operator's device plugin runs on a node without a
 * `nvidia.com/device-plugin.config` label: its default config
 * (`devicePlugin.config.default`), which "applies to every node" that
 * selects none (NVIDIA gpu-operator docs, "Time-Slicing GPUs in
 * Kubernetes"). A pool written before the product, its nodes unlabelled,
 * advertises what that default gives, not whole GPUs.
 */
import type { ClusterGpuStack } from '../cluster/gpuStack';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';

/**
 * The operator's default config as nodes carrying `labels` run it;
 * undefined when they select a config by label, or the repository holds
 * no sharing default.
 *
 * @public
 */
export function operatorDefaultConfigOn(
  labels: Readonly<Record<string, string>>,
  stack: ClusterGpuStack | undefined,
): { key: string; content: unknown } | undefined {
  if (labels[WELL_KNOWN_KEYS.devicePluginConfig] !== undefined) {
    return undefined;
  }
  return stack?.operatorSharesByDefault?.config;
}
