/**
 * Names of the labels our NodePools carry (under the cluster's label domain,
 * e.g. `gpu.backstage.io/sharing`) and the well-known labels we read back.
 * Readers match the suffix only, so a repository written with another label
 * domain is still understood.
 */
export const POOL_LABEL_SUFFIXES = {
  gpuModel: ['gpu-model', 'model'],
  sharing: ['sharing', 'sharing-mode'],
  slicesPerGpu: ['slices-per-gpu', 'replicas-per-gpu', 'slices'],
  migProfile: ['mig-profile'],
  resourceName: ['resource-name'],
  requests: ['requests'],
  limitFloor: ['limit-floor'],
} as const;

const FOREIGN_DOMAINS = [
  'nvidia.com/',
  'karpenter.sh/',
  'karpenter.k8s.aws/',
  'karpenter.azure.com/',
  'kubernetes.azure.com/',
  'node.kubernetes.io/',
  'kubernetes.io/',
];

/** Finds our label by suffix, ignoring NVIDIA / Karpenter / Kubernetes labels. */
export function findOurLabel(
  labels: Record<string, unknown>,
  suffixes: readonly string[],
): string | undefined {
  for (const suffix of suffixes) {
    for (const [key, value] of Object.entries(labels)) {
      if (FOREIGN_DOMAINS.some(d => key.startsWith(d))) continue;
      const slash = key.lastIndexOf('/');
      const name = slash < 0 ? key : key.slice(slash + 1);
      if (name === suffix && typeof value === 'string') return value;
    }
  }
  return undefined;
}

/** True for extended resources the NVIDIA device plugin (or our shared rename) serves. */
export function isGpuResourceName(name: string): boolean {
  return name.startsWith('nvidia.com/');
}
