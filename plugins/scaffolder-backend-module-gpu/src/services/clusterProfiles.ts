import { InputError } from '@backstage/errors';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { ClusterProfilesConfig } from '@gpu-gitops/plugin-gpu-node';

/**
 *  The cluster profiles of `gpu.clusters` (read by gpu-node `readGpuConfig`), looked up by an action's input.
 *
 * @public
 */
export interface ClusterProfiles {
  readonly defaultName: string;
  readonly names: string[];
  /** The named profile, or the default one; InputError for an unknown name. */
  get(name?: string): ClusterProfile;
}

/** The lookup the actions use: an unknown `cluster` input fails the step as an input error. */
export function clusterProfilesLookup(
  config: ClusterProfilesConfig,
): ClusterProfiles {
  const profiles = new Map(config.profiles.map(p => [p.name, p]));
  const names = config.profiles.map(p => p.name);
  const defaultName = config.defaultCluster;
  return {
    defaultName,
    names,
    get(name) {
      const key = name && name.trim() !== '' ? name : defaultName;
      const profile = profiles.get(key);
      if (!profile) {
        throw new InputError(
          `input "cluster": unknown cluster "${key}"; configured clusters: ${names.join(', ')} [unknown-cluster]`,
        );
      }
      return profile;
    },
  };
}
