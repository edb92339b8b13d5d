/**
 * What the repository runs on a cluster's GPU nodes beyond what the product
 * assumes, read from the cluster's files (`clusterReleaseFiles`: its own
 * folder and every file outside all clusters' folders): the planner's
 * `RepoState.gpuStack`, and what the bootstrap adapts its GPU Operator to.
 */
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import type { RepoTree } from '../tree';
import { migManagerOff } from './migManagerOff';
import { otherDevicePlugin } from './otherDevicePlugin';

export async function readGpuStack(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<ClusterGpuStack> {
  const devicePlugin = await otherDevicePlugin(tree, cluster, files);
  const migManager = await migManagerOff(tree, files);
  return {
    ...(devicePlugin ? { devicePlugin } : {}),
    ...(migManager ? { migManagerOff: migManager } : {}),
  };
}
