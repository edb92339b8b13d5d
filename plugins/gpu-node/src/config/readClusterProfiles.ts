import type { Config } from '@backstage/config';
import {
  compareStrings,
  defaultClusterProfile,
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

/**
 *  `gpu.clusters`: the resolved profiles and the cluster a request without one goes to.
 *
 * @public
 */
export interface ClusterProfilesConfig {
  /** Sorted by name; the built-in default profile when none is configured. */
  profiles: ClusterProfile[];
  /** `gpu.clusters.default`; the only profile when there is one, else the built-in default's name. */
  defaultCluster: string;
}

/**
 * Reads `gpu.clusters` (pass that sub-config, or undefined). Each profile is
 * the built-in default with the configured fields on top; a default naming
 * no profile fails start-up rather than the first request.
 */
export function readClusterProfiles(
  config: Config | undefined,
): ClusterProfilesConfig {
  const profilesConfig = config?.getOptionalConfig('profiles');
  const profiles = (profilesConfig?.keys() ?? []).map(name =>
    resolveClusterProfile({
      ...profilesConfig!.getConfig(name).get<object>(),
      name,
    }),
  );
  if (profiles.length === 0) profiles.push(resolveClusterProfile());
  profiles.sort((a, b) => compareStrings(a.name, b.name));
  const defaultCluster =
    config?.getOptionalString('default') ??
    (profiles.length === 1 ? profiles[0].name : defaultClusterProfile.name);
  if (!profiles.some(p => p.name === defaultCluster)) {
    throw new Error(
      `gpu.clusters.default names "${defaultCluster}", but gpu.clusters.profiles has only: ${profiles
        .map(p => p.name)
        .join(', ')}`,
    );
  }
  return { profiles, defaultCluster };
}
