/**
 * Whether the cluster's GPU Operator's MIG manager reads the ConfigMap the
 * product writes MIG pools' layouts into (the profile's `migPartedConfigMap`):
 * the operator hands the MIG manager the ConfigMap `migManager.config.name`
 * names, and with it empty (the chart's default) its own, generated from the
 * GPUs it finds (gpu-operator v26.7.0 `deployments/gpu-operator/values.yaml`
 * `migManager.config`, `templates/clusterpolicy.yaml` renders
 * `migManager.config.name` into the ClusterPolicy; `controllers/object_controls.go`
 * mounts it, else `MigPartedDefaultConfigMapName`). Any other ConfigMap
 * never holds the entries a MIG pool's `nvidia.com/mig.config` label
 * selects. A value that cannot be told (a hidden source) is never taken
 * for another name; a release whose MIG manager is off is `migManagerOff`'s.
 */
import type {
  ClusterProfile,
  MigManagerConfigElsewhere,
} from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import {
  layerToSetIn,
  readValue,
  setAdvice,
} from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import type { RepoTree } from '../tree';

const KEY = 'migManager.config.name';

export async function migManagerConfigElsewhere(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<MigManagerConfigElsewhere | undefined> {
  const wanted = cluster.migPartedConfigMap.name;
  for (const release of await findHelmReleases(
    tree,
    files,
    GPU_OPERATOR_CHART,
  )) {
    const enabled = readValue(release.layers, ['migManager', 'enabled']);
    if (enabled.state === 'set' && enabled.value === false) continue;
    const reading = readValue(release.layers, ['migManager', 'config', 'name']);
    if (reading.state === 'unknown') continue;
    const name = reading.state === 'set' ? String(reading.value ?? '') : '';
    if (name === wanted) continue;
    const setting =
      reading.state === 'set'
        ? `\`${KEY}: ${name === '' ? '""' : name}\` in ${reading.setIn.where}`
        : `\`${KEY}\` left to the chart's default (empty) by ${release.declaredBy} in \`${release.file}\``;
    return {
      file: release.file,
      configMap: name,
      setting,
      advice: setAdvice(
        layerToSetIn(
          release.layers,
          reading.state === 'set' ? reading.setIn : undefined,
        ),
        KEY,
        wanted,
      ),
    };
  }
  return undefined;
}
