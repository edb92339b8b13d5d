/**
 * The Kueue a repository installs for a cluster, whichever form installs it
 * (a release of the chart `kueue` that `findHelmReleases` reads, the
 * bootstrap's own among them, or plain manifests: `kueueManifests.ts`), and
 * the Configuration it runs with: the chart's value
 * `managerConfig.controllerManagerConfigYaml`, the ConfigMap key of the
 * plain manifests read as that value. The bootstrap finds an installed Kueue
 * through it (and never installs a second), the request's plan reads which
 * `deviceClassMappings` are set through it.
 */
import type { KueueDeviceClassMapping } from '@gpu-gitops/plugin-gpu-common';
import { parse } from 'yaml';
import type { RepoTree } from '../../../repo/tree';
import { findHelmReleases } from '../helmReleases/findHelmReleases';
import type { HelmRelease } from '../helmReleases/helmRelease';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import { readValue } from '../helmReleases/valuesLayer';
import { KUEUE_CHART } from './kueueChart';
import { deviceClassMappingsOf } from './kueueConfiguration';
import { kueueManifestReleases } from './kueueManifests';

/** Every Kueue the repository installs among `files` (`clusterReleaseFiles`). */
export async function repositoryKueueReleases(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<HelmRelease[]> {
  return [
    ...(await findHelmReleases(tree, files, KUEUE_CHART)),
    ...(await kueueManifestReleases(tree, files)),
  ];
}

/**
 * The Configuration `release` runs with, when its values say so; undefined
 * for the chart's (or upstream manifests') default, or Configuration text
 * the repository hides or that does not parse.
 */
export function kueueConfigurationOf(release: HelmRelease): unknown {
  const reading = readValue(release.layers, [
    'managerConfig',
    'controllerManagerConfigYaml',
  ]);
  if (reading.state !== 'set' || typeof reading.value !== 'string') {
    return undefined;
  }
  try {
    return parse(reading.value);
  } catch {
    // Kueue would not start on it either; `validate` and the tool say so.
    return undefined;
  }
}

/** The `resources.deviceClassMappings` the repository's Kueue runs with (none when unknown). */
export async function configuredDeviceClassMappings(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<KueueDeviceClassMapping[]> {
  const releases = await repositoryKueueReleases(tree, files);
  return releases.flatMap(release =>
    deviceClassMappingsOf(kueueConfigurationOf(release)),
  );
}
