/**
 * Whether the cluster's GPU Operator runs its MIG manager: a release the
 * repository declares (`findHelmReleases`) that sets `migManager.enabled`
 * to false in a source the bootstrap reads (the chart's default is true,
 * gpu-operator v26.7.0 `deployments/gpu-operator/values.yaml`). Without it
 * nothing applies the `nvidia.com/mig.config` label of a MIG pool's nodes.
 * A value that cannot be told (a hidden source) is never taken for false.
 */
import type { StackSetting } from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import type { RepoTree } from '../tree';

export async function migManagerOff(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<StackSetting | undefined> {
  for (const release of await findHelmReleases(
    tree,
    files,
    GPU_OPERATOR_CHART,
  )) {
    const reading = readValue(release.layers, ['migManager', 'enabled']);
    if (reading.state === 'set' && reading.value === false) {
      return {
        file: release.file,
        setting: `\`migManager.enabled: false\` in ${reading.setIn.where}`,
      };
    }
  }
  return undefined;
}
