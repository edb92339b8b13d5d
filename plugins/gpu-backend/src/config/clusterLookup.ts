import {
  GpuInputError,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { GpuBackendConfig } from './readGpuBackendConfig';

/**
 * The profile a stored request names (`spec.cluster`; the default cluster
 * when it names none), for the backend's own pull requests (updates,
 * releases). An unknown name is a GpuInputError: the request cannot be
 * rendered here, and the run says why.
 */
export function clusterLookup(
  settings: Pick<GpuBackendConfig, 'clusters' | 'defaultCluster'>,
): (name: string | undefined) => ClusterProfile {
  return name => {
    const wanted = name ?? settings.defaultCluster;
    const profile = settings.clusters.find(c => c.name === wanted);
    if (!profile) {
      throw new GpuInputError([
        {
          path: 'spec.cluster',
          rule: 'unknown-cluster',
          message: `cluster "${wanted}" is not configured (gpu.clusters.profiles: ${settings.clusters.map(c => c.name).join(', ')})`,
        },
      ]);
    }
    return profile;
  };
}
