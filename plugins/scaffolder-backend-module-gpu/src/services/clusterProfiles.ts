import type { Config } from '@backstage/config';
import { InputError } from '@backstage/errors';
import {
  defaultClusterProfile,
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

/**
 *  The cluster profiles of `gpu.clusters`, resolved once at start-up.
 *
 * @public
 */
export interface ClusterProfiles {
  readonly defaultName: string;
  readonly names: string[];
  /** The named profile, or the default one; InputError for an unknown name. */
  get(name?: string): ClusterProfile;
}

/**
 * Reads `gpu.clusters` (pass that sub-config, or undefined). Each profile is
 * the built-in default with the configured fields on top; a bad profile
 * fails start-up rather than the first task.
 */
export function readClusterProfiles(
  config: Config | undefined,
): ClusterProfiles {
  const profilesConfig = config?.getOptionalConfig('profiles');
  const profiles = new Map<string, ClusterProfile>();
  for (const name of profilesConfig?.keys() ?? []) {
    const override = profilesConfig!.getConfig(name).get<object>();
    profiles.set(name, resolveClusterProfile({ ...override, name }));
  }
  if (profiles.size === 0) {
    profiles.set(defaultClusterProfile.name, resolveClusterProfile());
  }
  const names = [...profiles.keys()].sort();
  const defaultName =
    config?.getOptionalString('default') ??
    (profiles.size === 1 ? names[0] : defaultClusterProfile.name);
  if (!profiles.has(defaultName)) {
    throw new Error(
      `gpu.clusters.default names "${defaultName}", but gpu.clusters.profiles has only: ${names.join(', ')}`,
    );
  }
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
